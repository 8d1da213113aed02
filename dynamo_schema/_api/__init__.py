"""The public functions re-exported by ``dynamo_schema``: thin typed wrappers over the pipeline.

``_common`` (input types, the in-memory document), ``_validate`` (load, validate), ``_render`` (default,
render, DGDR materialization, DeploymentSpec compile, the YAML emitter), ``_change`` (convert, diff, merge,
explain). Nothing is imported here: ``dynamo_schema`` resolves each name from its module on first use.
"""
