module Bookmarks
  # Tags are lowercase words joined by dashes: "Ruby on Rails" becomes "ruby-on-rails".
  module Tagger
    MAX_TAGS = 10

    def self.normalize(tag)
      tag.to_s.strip.downcase.gsub(/\s+/, "-")
    end

    def self.parse(value)
      list = value.is_a?(Array) ? value : value.to_s.split(",")
      list.map { |tag| normalize(tag) }.reject(&:empty?).uniq.first(MAX_TAGS)
    end
  end
end
