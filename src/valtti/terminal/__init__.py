"""The terminal front end: ``valtti play`` (a match against computer players) and
``valtti replay FILE --show``, drawn with rich, in English and Finnish (``i18n``)."""
