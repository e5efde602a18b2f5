require "sinatra/base"
require "sinatra/json"
require_relative "lib/bookmarks/store"
require_relative "lib/bookmarks/tagger"
require_relative "lib/bookmarks/importer"

class BookmarksApp < Sinatra::Base
  set :store, Bookmarks::Store.new(ENV.fetch("BOOKMARKS_DB", "bookmarks.json"))

  helpers do
    def store
      settings.store
    end

    def payload
      JSON.parse(request.body.read)
    rescue JSON::ParserError
      halt 400, json(error: "the body is not JSON")
    end
  end

  get "/bookmarks" do
    tag = params["tag"]
    json(tag ? store.tagged(Bookmarks::Tagger.normalize(tag)) : store.all)
  end

  get "/bookmarks/:id" do
    bookmark = store.find(params["id"])
    halt 404, json(error: "not found") unless bookmark
    json(bookmark)
  end

  post "/bookmarks" do
    data = payload
    halt 422, json(error: "url is required") if data["url"].to_s.empty?
    bookmark = store.add(url: data["url"], title: data["title"],
                         tags: Bookmarks::Tagger.parse(data["tags"]))
    status 201
    json(bookmark)
  end

  delete "/bookmarks/:id" do
    bookmark = store.find(params["id"])
    halt 404, json(error: "not found") unless bookmark
    store.delete(bookmark["id"])
    status 204
  end

  post "/import" do
    count = Bookmarks::Importer.new(store).import_html(request.body.read)
    json(imported: count)
  end
end
