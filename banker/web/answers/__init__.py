"""A form or an action to a response: perform and answer, forms read, second taps, who is at
this browser."""
