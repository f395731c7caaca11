"""Keep the book's pages free of launchers that point outside the book.

jupyter-book 1.x always loads sphinx-thebe, which writes a script on every page
naming a public CDN and an example binder repository, although this book has
no live kernels.  This extension unhooks sphinx-thebe's event handlers, so that
no page carries them, nor its style sheet.
"""


def setup(app):
    # its style sheet too: it would be linked, but no longer copied
    app.registry.css_files = [(name, attrs) for name, attrs in app.registry.css_files if "thebe" not in str(name)]
    for event, listeners in app.events.listeners.items():
        app.events.listeners[event] = [
            listener for listener in listeners
            if not getattr(listener.handler, "__module__", "").startswith("sphinx_thebe")
        ]
    return {"parallel_read_safe": True, "parallel_write_safe": True}
