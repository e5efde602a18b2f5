require "tmpdir"
require_relative "../lib/bookmarks/store"

RSpec.describe Bookmarks::Store do
  around do |example|
    Dir.mktmpdir do |dir|
      @path = File.join(dir, "bookmarks.json")
      example.run
    end
  end

  subject(:store) { described_class.new(@path) }

  it "keeps what it adds across instances" do
    item = store.add(url: "https://ruby-doc.org", tags: ["ruby"])
    reopened = described_class.new(@path)
    expect(reopened.find(item["id"])).to include("url" => "https://ruby-doc.org")
  end

  it "lists the bookmarks of one tag" do
    store.add(url: "https://sinatrarb.com", tags: %w[ruby web])
    store.add(url: "https://go.dev", tags: %w[go])
    expect(store.tagged("web").map { |item| item["url"] }).to eq(["https://sinatrarb.com"])
  end
end
