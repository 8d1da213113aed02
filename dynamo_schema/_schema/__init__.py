"""Schema checks: the bundled CRD schemas, the structural walk, CEL (fast paths and the engine), explain, the operator's other kinds."""
