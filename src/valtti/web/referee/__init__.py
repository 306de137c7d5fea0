"""The web's table referee: each table a ``room`` on the seat driver (check, persist, apply,
tell each viewer its frame), the tables of a server (``rooms``), and what a table has besides
its match (chat, presence, the turn clock and stand-ins, the ends of deals, hints, reviews, the
computer players in worker processes). It knows no HTTP: the routes (``valtti.web.routes``, with
``app``, ``deps`` and ``messages``) translate requests and WebSocket messages into its calls."""
