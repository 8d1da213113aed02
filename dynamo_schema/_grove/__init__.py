"""Grove's admission of PodCliqueSets: defaulting (``_defaults``), the create webhook (``_create``: ``validate_pcs``)
with its rule groups (``_backend``, ``_topology``, ``_mnnvl``), the in-place update webhook (``_update``:
``update_refusals``), the operator and cluster state it reads (``_settings``: ``GroveSettings``)."""
