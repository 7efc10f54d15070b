"""How pages are served: static assets, security headers, rate limits, the access log and metrics' routes, templates compiled, rows rendered once."""
