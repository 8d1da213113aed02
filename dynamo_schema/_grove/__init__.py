"""Grove's admission of PodCliqueSets (the create webhook)."""
