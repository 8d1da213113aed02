"""Stage "load" and the output side: YAML/JSON loading with located errors, Go's JSON syntax check, Kubernetes-safe emit, comment-keeping round-trip, validate reports."""
