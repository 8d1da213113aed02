"""Shared types at the bottom of the pipeline: diagnostics and the error hierarchy, documents, constants, file writes, the version."""
