"""Club mode (``valtti serve --club``, docs/HOSTING.md "A club"): members who sign in, their
ratings, and club nights (duplicate tournaments). A front end's part, as the rest of web/:
the store's tables are db/club.py's, the seat driver plays every table of a night."""
