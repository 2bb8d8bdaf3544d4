"""whistsim's version, in a module of its own: modules import it from here, never from the package."""

__version__ = "0.1.0"
