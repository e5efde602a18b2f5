module Bookmarks
  # Imports the Netscape bookmark file (bookmarks.html) that every browser exports.
  class Importer
    LINK = %r{<A\s+HREF="([^"]+)"([^>]*)>([^<]*)</A>}i
    TAGS = /TAGS="([^"]*)"/i

    def initialize(store)
      @store = store
    end

    # Adds every link the store does not know yet; returns how many were added.
    def import_html(html)
      count = 0
      html.scan(LINK) do |url, attributes, title|
        next if @store.known_url?(url)

        tags = attributes[TAGS, 1]
        @store.add(url: url, title: unescape(title.strip), tags: Tagger.parse(tags))
        count += 1
      end
      count
    end

    private

    def unescape(text)
      text.gsub("&lt;", "<").gsub("&gt;", ">").gsub("&quot;", '"').gsub("&amp;", "&")
    end
  end
end
