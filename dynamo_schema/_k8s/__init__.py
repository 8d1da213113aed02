"""Kubernetes and Go facts every stage needs: apimachinery name validators, ObjectMeta, quantities, Go value formatting and JSON layout, built-in kinds' schemas."""
