"""Tests of dynamo_schema._k8s (Go formatting, Go JSON layout)."""
