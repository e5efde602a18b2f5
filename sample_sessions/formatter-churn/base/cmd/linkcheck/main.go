// Command linkcheck reports broken links in Markdown files.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"example.com/linkcheck/internal/check"
	"example.com/linkcheck/internal/scan"
)

func main() {
	cfg := check.DefaultConfig()
	flag.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "timeout per request")
	flag.IntVar(&cfg.Workers, "workers", cfg.Workers, "concurrent requests")
	flag.IntVar(&cfg.Retries, "retries", cfg.Retries, "extra attempts after a failure")
	quiet := flag.Bool("quiet", false, "print only broken links")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: linkcheck [flags] FILE.md...")
		os.Exit(2)
	}

	links, err := scan.Files(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "linkcheck:", err)
		os.Exit(2)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	checker := check.New(cfg)
	urls := make([]string, len(links))
	for i, link := range links {
		urls[i] = link.URL
	}
	broken := 0
	for i, result := range checker.CheckAll(ctx, urls) {
		link := links[i]
		switch {
		case result.Err != nil:
			broken++
			fmt.Printf("%s:%d: %s: %v\n", link.File, link.Line, link.URL, result.Err)
		case result.Broken():
			broken++
			fmt.Printf("%s:%d: %s: HTTP %d\n", link.File, link.Line, link.URL, result.Status)
		case !*quiet:
			fmt.Printf("%s:%d: %s: ok\n", link.File, link.Line, link.URL)
		}
	}
	fmt.Fprintf(os.Stderr, "checked %d links, %d broken\n", len(links), broken)
	if broken > 0 {
		os.Exit(1)
	}
}
