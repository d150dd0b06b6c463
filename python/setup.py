"""animkit for Python: `pip install ./python` (offline; Debian's setuptools, cffi and numpy)."""
from setuptools import setup

setup(
    name="animkit",
    version="0.1.0",
    description="Character animation toolkit: BVH, FK, IK, motion editing, walker (C library bindings)",
    packages=["animkit"],
    python_requires=">=3.9",
    setup_requires=["cffi>=1.15"],
    install_requires=["cffi>=1.15", "numpy>=1.21"],
    cffi_modules=["animkit_build.py:ffibuilder"],
    zip_safe=False,
)
