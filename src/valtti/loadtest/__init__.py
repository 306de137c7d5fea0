"""``valtti loadtest``: many WebSocket clients against a web server, the latency of their actions
and chat measured (``run``; ``figures`` what it measured, and its report). A client of the server
over the network, as a browser is: it imports nothing of ``valtti.web``."""
