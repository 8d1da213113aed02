"""nvidia.com/v1alpha1 <-> v1beta1 conversion of DGD and DCD."""
