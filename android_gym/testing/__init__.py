"""Fakes and drivers that users and our tests share."""
