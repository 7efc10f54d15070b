"""What pyproject.toml cannot say (the rest of the packaging is there): templates/ and static/ stay
at the top of the repository and travel inside the wheel as banker/templates and banker/static,
where `banker.shipped` finds them in an installed copy."""

from setuptools import find_namespace_packages, setup

SHIPPED = ("templates", "static")

setup(
    packages=find_namespace_packages(include=["banker*"])
    + [f"banker.{folder}" + (f".{inner}" if inner else "")
       for folder in SHIPPED for inner in ("", *find_namespace_packages(folder))],
    package_dir={f"banker.{folder}": folder for folder in SHIPPED},
)
