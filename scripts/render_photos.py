"""Render synthetic photos with truth files (same options as ``rink render``).

python scripts/render_photos.py --out out/renders --n 100 --seed 7 [--megapixels 2]
"""

from vision.render.command import render

if __name__ == "__main__":
    render()
