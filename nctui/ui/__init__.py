"""The Textual user interface: the app is ``app.create_app``. Nothing is imported here, so that
what must come before the widgets are made (``widget_classes.install``) can."""
