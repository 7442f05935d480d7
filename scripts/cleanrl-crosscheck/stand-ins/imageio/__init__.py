"""Rendering is not used by the cross-check."""
