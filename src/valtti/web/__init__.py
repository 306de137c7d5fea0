"""The web table: server, persistence and the browser page (docs/WEB.md)."""
