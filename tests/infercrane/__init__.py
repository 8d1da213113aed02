"""InferCrane DeploymentSpec tests."""
