// Package scan finds links in Markdown files.
package scan

import (
	"bufio"
	"os"
	"regexp"
	"strings"
)

// Link is one http(s) link and where it was found.
type Link struct {
	File string
	Line int
	URL  string
}

var linkPattern = regexp.MustCompile(`\]\((https?://[^)\s]+)\)|<(https?://[^>\s]+)>`)

// Files returns the links in the given Markdown files, in file and line order.
func Files(paths []string) ([]Link, error) {
	var links []Link
	for _, path := range paths {
		found, err := file(path)
		if err != nil {
			return nil, err
		}
		links = append(links, found...)
	}
	return links, nil
}

func file(path string) ([]Link, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var links []Link
	inFence := false
	lines := bufio.NewScanner(f)
	for n := 1; lines.Scan(); n++ {
		text := lines.Text()
		if strings.HasPrefix(strings.TrimSpace(text), "```") {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range linkPattern.FindAllStringSubmatch(text, -1) {
			url := m[1]
			if url == "" {
				url = m[2]
			}
			links = append(links, Link{File: path, Line: n, URL: url})
		}
	}
	return links, lines.Err()
}
