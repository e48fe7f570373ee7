package policy

import (
	"strings"
	"testing"
)

// TestPathSegmentHelpers: the allocation-free comparisons say what the
// concatenations they replace said.
func TestPathSegmentHelpers(t *testing.T) {
	paths := []string{"", "/", ".aws", "/.aws", "/x/.aws", "/x/.aws/", "/x/.aws/credentials", "/x/my.aws",
		"/x/.awsx", "/x/.aws.bak/y", "/.kube/config", "/h/.kube/config", "/h/.kube/configs", "/h/.kube/config/x",
		"/h/x.kube/config", ".aws/x", "/a/.aws/.aws", "/a/b.aws/.aws/c"}
	segs := []string{".aws", ".kube/config", "config"}
	for _, p := range paths {
		for _, c := range segs {
			want := strings.HasSuffix(p, "/"+c) || strings.Contains(p, "/"+c+"/")
			if got := hasPathSegments(p, c); got != want {
				t.Errorf("hasPathSegments(%q, %q) = %v, want %v", p, c, got, want)
			}
			want = strings.HasPrefix(p, c+"/")
			if got := hasDirPrefix(p, c); got != want {
				t.Errorf("hasDirPrefix(%q, %q) = %v, want %v", p, c, got, want)
			}
		}
	}
}
