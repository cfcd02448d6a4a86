#!/usr/bin/env python3
"""
Makes src/web/fonts/*.woff2: one file per face (Inter and Fraunces, variable weight, normal
style), each covering fontsource's `latin` range plus the macron vowels te reo Māori needs
(U+0100/0101 A, U+0112/0113 E, U+012A/012B I, U+014C/014D O, U+016A/016B U), with the wght axis
kept. See docs/decisions/0023-one-font-file-per-face.md.

Run from the project root (needs npm, and Debian's fonttools and python3-brotli):

    apt-get install -y fonttools python3-brotli
    /usr/bin/python3 scripts/subset-fonts.py

The source is the very font the site served before: fontsource's Google Fonts builds
(@fontsource-variable/inter and /fraunces at FONTSOURCE_VERSION, fetched with `npm pack`), so
outlines, metrics and kerning are unchanged. Fontsource splits each face by unicode-range:
  * Inter's `latin` file already holds the macron-vowel glyphs (it composes A + U+0304 through
    ccmp), with their kerning; only the cmap entries for U+0100 etc. are missing, so they are
    added, pointing at those glyphs.
  * Fraunces' `latin` file lacks them, so they are copied from its `latin-ext` file (same font
    version): outlines, gvar variations, advance widths and their HVAR deltas, and each joins
    the kerning classes of its base letter, as in the full font (checked against latin-ext's
    own kerning below).
Then fontTools' subsetter (the pyftsubset command, arguments in SUBSET_ARGS) cuts the result to
UNICODES and writes woff2.
"""

import os
import shlex
import subprocess
import sys
import tarfile
import tempfile
import unicodedata

try:
    from fontTools.subset import main as pyftsubset
    from fontTools.ttLib import TTFont
    from fontTools.varLib.builder import buildVarData
    import brotli  # noqa: F401 (fontTools writes woff2 with it)
except ImportError as error:
    sys.exit(f'{error}: install fontTools and brotli (Debian: apt-get install -y fonttools python3-brotli,'
             ' then run this with /usr/bin/python3; elsewhere: pip install fonttools brotli)')

FONTSOURCE_VERSION = '5.3.0'
FACES = ['inter', 'fraunces']

# fontsource's `latin` unicode-range (the packages' index.css).
LATIN = (
    'U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,'
    'U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD'
)
MACRON_VOWELS = [0x100, 0x101, 0x112, 0x113, 0x12A, 0x12B, 0x14C, 0x14D, 0x16A, 0x16B]
UNICODES = LATIN + ',' + ','.join(f'U+{cp:04X}' for cp in MACRON_VOWELS)

SUBSET_ARGS = [
    # plus, per face, whatever else the fontsource latin file maps (Inter's has the combining
    # acute, grave, tilde, hook and dot below too): nothing it drew before is lost
    f'--unicodes={UNICODES}',
    '--layout-features=*',  # keep every feature fontsource kept (tnum for tabular-nums, frac, ...)
    '--name-IDs=*',
    '--notdef-outline',
    '--flavor=woff2',
]

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'src', 'web', 'fonts')


def fetch_fontsource(face, workdir):
    """The fontsource package's latin and latin-ext files for wght, normal style."""
    spec = f'@fontsource-variable/{face}@{FONTSOURCE_VERSION}'
    tgz = subprocess.run(['npm', 'pack', spec, '--silent', '--pack-destination', workdir],
                         check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    folder = os.path.join(workdir, face)
    with tarfile.open(os.path.join(workdir, tgz)) as tar:
        # Python 3.12+ and patched 3.11 take a filter; Debian 12's 3.11.2 does not.
        tar.extractall(folder, **({'filter': 'data'} if hasattr(tarfile, 'data_filter') else {}))
    files = os.path.join(folder, 'package', 'files')
    return (os.path.join(files, f'{face}-latin-wght-normal.woff2'),
            os.path.join(files, f'{face}-latin-ext-wght-normal.woff2'))


def same_glyph(a, b, name):
    ga, gb = a['glyf'][name], b['glyf'][name]
    ga.expand(a['glyf'])
    gb.expand(b['glyf'])
    if ga.isComposite() != gb.isComposite():
        return False
    if ga.isComposite():
        shape = lambda g: [(c.glyphName, c.x, c.y) for c in g.components]
    else:
        shape = lambda g: (list(g.coordinates), list(g.endPtsOfContours)) if g.numberOfContours else []
    deltas = lambda f: [(v.axes, v.coordinates) for v in f['gvar'].variations.get(name, [])]
    return shape(ga) == shape(gb) and a['hmtx'][name] == b['hmtx'][name] and deltas(a) == deltas(b)


def component_closure(font, names):
    """names plus every glyph their composites are built from."""
    todo, seen = list(names), []
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.append(name)
        glyph = font['glyf'][name]
        if glyph.isComposite():
            todo.extend(c.glyphName for c in glyph.components)
    return seen


def region_key(region):
    return tuple((a.StartCoord, a.PeakCoord, a.EndCoord) for a in region.VarRegionAxis)


def copy_advance_deltas(base, ext, names):
    """HVAR: give the copied glyphs their advance-width deltas, in a new VarData of base's store."""
    bh, eh = base['HVAR'].table, ext['HVAR'].table
    assert bh.AdvWidthMap and eh.AdvWidthMap and not (bh.LsbMap or bh.RsbMap or eh.LsbMap or eh.RsbMap)
    base_regions = bh.VarStore.VarRegionList.Region
    keys = [region_key(r) for r in base_regions]
    ext_regions = eh.VarStore.VarRegionList.Region
    ext_map = eh.AdvWidthMap.mapping
    region_count = len(base_regions)
    rows = []
    for name in names:
        vi = ext_map[name]
        data = eh.VarStore.VarData[vi >> 16]
        row = [0] * region_count
        for column, region_index in enumerate(data.VarRegionIndex):
            key = region_key(ext_regions[region_index])
            if key not in keys:
                raise SystemExit(f'latin-ext has a variation region latin lacks: {key}')
            row[keys.index(key)] = data.Item[vi & 0xFFFF][column]
        rows.append(row)
    outer = len(bh.VarStore.VarData)
    bh.VarStore.VarData.append(buildVarData(list(range(region_count)), rows, optimize=False))
    bh.VarStore.VarDataCount = len(bh.VarStore.VarData)
    for inner, name in enumerate(names):
        bh.AdvWidthMap.mapping[name] = (outer << 16) | inner


def pair_subtables(font):
    for lookup in font['GPOS'].table.LookupList.Lookup:
        for sub in lookup.SubTable:
            sub = sub.ExtSubTable if lookup.LookupType == 9 else sub
            if type(sub).__name__ == 'PairPos':
                yield sub


def kerning(font, left, right):
    """The first PairPos value for left, right (as the kern feature applies it), or None."""
    store = font['GDEF'].table.VarStore
    for sub in pair_subtables(font):
        if left not in sub.Coverage.glyphs:
            continue
        if sub.Format == 1:
            pairs = sub.PairSet[sub.Coverage.glyphs.index(left)].PairValueRecord
            record = next((r for r in pairs if r.SecondGlyph == right), None)
            if record is None:
                continue
            value = record.Value1
        else:
            c1 = sub.ClassDef1.classDefs.get(left, 0)
            c2 = sub.ClassDef2.classDefs.get(right, 0)
            value = sub.Class1Record[c1].Class2Record[c2].Value1
        if value is None:
            return None
        device = getattr(value, 'XAdvDevice', None)
        deltas = None
        if device is not None and device.StartSize != 0xFFFF:  # 0xFFFF/0xFFFF: no variation
            data = store.VarData[device.StartSize]
            deltas = [(region_key(store.VarRegionList.Region[r]), d)
                      for r, d in zip(data.VarRegionIndex, data.Item[device.EndSize])]
        return (getattr(value, 'XAdvance', 0), deltas)
    return None


def kern_value(font, left, right):
    value = kerning(font, left, right)
    return value if value and (value[0] or value[1]) else None


def join_kerning_classes(base, pairs):
    """Each copied glyph kerns like its base letter: it joins that letter's class-pair classes."""
    for sub in pair_subtables(base):
        if sub.Format != 2:
            continue
        for glyph, letter in pairs:
            if letter in sub.Coverage.glyphs and glyph not in sub.Coverage.glyphs:
                sub.Coverage.glyphs.append(glyph)
                sub.Coverage.glyphs.sort(key=base.getGlyphID)
            for classdef in (sub.ClassDef1, sub.ClassDef2):
                if letter in classdef.classDefs:
                    classdef.classDefs[glyph] = classdef.classDefs[letter]


def add_macron_vowels(base, ext):
    """Adds the macron vowels to base (a fontsource latin file), from ext (its latin-ext file)."""
    ext_cmap = ext.getBestCmap()
    wanted = {cp: ext_cmap[cp] for cp in MACRON_VOWELS}
    order = base.getGlyphOrder()
    missing = [name for name in component_closure(ext, wanted.values()) if name not in order]
    for name in component_closure(ext, wanted.values()):
        if name in order and not same_glyph(base, ext, name):
            raise SystemExit(f'{name} differs between the latin and latin-ext files: not the same font build')

    if missing:
        gpos_types = {lookup.LookupType for lookup in base['GPOS'].table.LookupList.Lookup}
        gdef = base['GDEF'].table
        if not gpos_types <= {2, 9} or gdef.GlyphClassDef or getattr(gdef, 'MarkGlyphSetsDef', None):
            raise SystemExit('copying glyphs into a font with mark positioning or glyph classes is not handled')
        base.setGlyphOrder(order + missing)
        base['glyf'].glyphOrder = base.getGlyphOrder()
        for name in missing:
            base['glyf'][name] = ext['glyf'][name]
            base['hmtx'][name] = ext['hmtx'][name]
            base['gvar'].variations[name] = ext['gvar'].variations.get(name, [])
        copy_advance_deltas(base, ext, missing)
        base_cmap = base.getBestCmap()
        pairs = []
        for cp, name in wanted.items():
            if name in missing:
                letter = base_cmap[ord(unicodedata.normalize('NFD', chr(cp))[0])]
                pairs.append((name, letter))
        join_kerning_classes(base, pairs)
        # Check against the full font's kerning as latin-ext kept it. latin-ext kept none for
        # glyphs it holds only as components (A, a, ...), so compare through accented letters:
        # latin-ext's kerning of a copied vowel with, say, Cacute must be what the merged font
        # gives it with C (the full font kerns accented letters like their base letter).
        ext_cmap_base = {}
        for cp, name in ext_cmap.items():
            letter = unicodedata.normalize('NFD', chr(cp))[0]
            if ord(letter) != cp and ord(letter) in base_cmap:
                ext_cmap_base[name] = base_cmap[ord(letter)]
        for name, _ in pairs:
            for other, other_letter in ext_cmap_base.items():
                for ext_pair, base_pair in (((name, other), (name, other_letter)), ((other, name), (other_letter, name))):
                    if kern_value(ext, *ext_pair) != kern_value(base, *base_pair):
                        raise SystemExit(f'kerning {ext_pair} in latin-ext is not {base_pair} in the merged font')

    for table in base['cmap'].tables:
        if table.isUnicode():
            for cp, name in wanted.items():
                assert name in base.getGlyphOrder()
                table.cmap[cp] = name
    return missing


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir:
        for face in FACES:
            latin, latin_ext = fetch_fontsource(face, workdir)
            # keep head.modified as fontsource built it, so a run makes the same bytes again
            base, ext = TTFont(latin, recalcTimestamp=False), TTFont(latin_ext)
            copied = add_macron_vowels(base, ext)
            merged = os.path.join(workdir, f'{face}-merged.ttf')
            base.flavor = None
            base.save(merged)
            out = os.path.join(OUT_DIR, f'{face}-latin-macron-wght-normal.woff2')
            extra = ','.join(f'U+{cp:04X}' for cp in sorted(TTFont(latin).getBestCmap()))
            args = [merged, f'--output-file={out}', *SUBSET_ARGS, f'--unicodes={extra}']
            print('pyftsubset ' + ' '.join(shlex.quote(a) for a in args))
            pyftsubset(args)
            print(f'{os.path.relpath(out)}: {os.path.getsize(out)} bytes'
                  f' (from {os.path.basename(latin)} {os.path.getsize(latin)} bytes;'
                  f' glyphs copied from latin-ext: {", ".join(copied) or "none"})')


if __name__ == '__main__':
    sys.exit(main())
