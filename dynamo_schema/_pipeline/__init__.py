"""Orchestration of the stages per command: validate, compile/render, diff, reconcile, kustomize, merge checks, kind policy, waivers, streaming, schema generation."""
