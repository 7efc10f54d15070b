"""How pages are served: static assets, security headers, rate limits, the access log and the
metrics' routes, templates compiled once, rows rendered once."""
