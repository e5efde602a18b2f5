require_relative "app"

run BookmarksApp
