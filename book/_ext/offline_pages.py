"""Keep the book's pages free of launchers that point outside the book.

jupyter-book 1.x always loads sphinx-thebe, which writes a script on every page
naming a public CDN and an example binder repository, although this book has
no live kernels.  This extension unhooks sphinx-thebe's event handlers, so that
no page carries them.
"""


def setup(app):
    for event, listeners in app.events.listeners.items():
        app.events.listeners[event] = [
            listener for listener in listeners
            if not getattr(listener.handler, "__module__", "").startswith("sphinx_thebe")
        ]
    return {"parallel_read_safe": True, "parallel_write_safe": True}
