package check

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestCheckReportsStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()

	c := New(DefaultConfig())
	results := c.CheckAll(context.Background(), []string{srv.URL + "/", srv.URL + "/missing"})
	if results[0].Broken() {
		t.Errorf("%s: want ok, got %+v", results[0].URL, results[0])
	}
	if !results[1].Broken() || results[1].Status != http.StatusNotFound {
		t.Errorf("%s: want 404, got %+v", results[1].URL, results[1])
	}
}
