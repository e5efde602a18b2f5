require "json"
require "securerandom"
require "time"

module Bookmarks
  # All bookmarks in one JSON file, rewritten whole on every change.
  class Store
    def initialize(path)
      @path = path
      @items = File.exist?(path) ? JSON.parse(File.read(path)) : []
      @lock = Mutex.new
    end

    def all
      @items.sort_by { |item| item["created_at"] }.reverse
    end

    def find(id)
      @items.find { |item| item["id"] == id }
    end

    def tagged(tag)
      all.select { |item| item["tags"].include?(tag) }
    end

    def known_url?(url)
      @items.any? { |item| item["url"] == url }
    end

    def add(url:, title: nil, tags: [], created_at: nil)
      item = {
        "id" => SecureRandom.hex(6),
        "url" => url,
        "title" => title || url,
        "tags" => tags,
        "created_at" => created_at || Time.now.utc.iso8601
      }
      @lock.synchronize do
        @items << item
        save
      end
      item
    end

    def delete(id)
      @lock.synchronize do
        removed = @items.reject! { |item| item["id"] == id }
        save if removed
        !removed.nil?
      end
    end

    private

    def save
      tmp = "#{@path}.tmp"
      File.write(tmp, JSON.pretty_generate(@items))
      File.rename(tmp, @path)
    end
  end
end
