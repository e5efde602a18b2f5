// Package check fetches URLs and reports the ones that are broken.
package check

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Config controls how links are checked.
type Config struct {
	Timeout      time.Duration // per request
	Workers      int           // concurrent requests
	Retries      int           // extra attempts after a failure
	UserAgent    string        // sent with every request; empty: Go's default
	MaxRedirects int           // redirects followed before giving up
}

// DefaultConfig is what the command line uses when no flags are given.
func DefaultConfig() Config {
	return Config{
		Timeout:      10 * time.Second,
		Workers:      8,
		Retries:      1,
		MaxRedirects: 5,
	}
}

// Result is the outcome of checking one URL.
type Result struct {
	URL    string
	Status int
	Err    error
}

// Broken reports whether the link should be listed as broken.
func (r Result) Broken() bool {
	return r.Err != nil || r.Status >= 400
}

// Checker checks URLs with a shared HTTP client.
type Checker struct {
	cfg    Config
	client *http.Client
}

// New returns a Checker for cfg.
func New(cfg Config) *Checker {
	return &Checker{
		cfg:    cfg,
		client: &http.Client{
			Timeout:       cfg.Timeout,
			CheckRedirect: stopAfter(cfg.MaxRedirects),
		},
	}
}

// stopAfter is a redirect policy that follows at most limit redirects.
func stopAfter(limit int) func(*http.Request, []*http.Request) error {
	return func(_ *http.Request, via []*http.Request) error {
		if len(via) > limit {
			return fmt.Errorf("stopped after %d redirects", limit)
		}
		return nil
	}
}

// CheckAll checks every URL and returns the results in the order given.
func (c *Checker) CheckAll(ctx context.Context, urls []string) []Result {
	results := make([]Result, len(urls))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < c.cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = c.Check(ctx, urls[i])
			}
		}()
	}
	for i := range urls {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

// Check fetches one URL, retrying failures and server errors up to cfg.Retries times.
func (c *Checker) Check(ctx context.Context, url string) Result {
	var result Result
	for attempt := 0; attempt <= c.cfg.Retries; attempt++ {
		result = c.try(ctx, url)
		if result.Err == nil && result.Status < 500 {
			break
		}
	}
	return result
}

// try makes one HEAD request.
func (c *Checker) try(ctx context.Context, url string) Result {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, url, nil)
	if err != nil {
		return Result{URL: url, Err: fmt.Errorf("bad url: %w", err)}
	}
	if c.cfg.UserAgent != "" {
		req.Header.Set("User-Agent", c.cfg.UserAgent)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return Result{URL: url, Err: fmt.Errorf("timed out after %s", c.cfg.Timeout)}
		}
		return Result{URL: url, Err: err}
	}
	resp.Body.Close()
	return Result{URL: url, Status: resp.StatusCode}
}
