"""assistant package."""
