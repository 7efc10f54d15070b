"""Blueprints: the pages and the API, thin views over the store and the screens."""
