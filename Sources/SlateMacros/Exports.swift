@_exported import Slate
