#!/bin/sh
# Puts bidcheck in the desktop's application menu, for this user: a launcher entry that starts
# bidcheck-gui of the folder this script is in, the app's icon, and saved checks (.bidcheck files)
# opening in the app. Run it again after moving the folder; `--remove` takes it all away again.
# Writes under $XDG_DATA_HOME (~/.local/share): applications/bidcheck.desktop,
# icons/hicolor/scalable/apps/bidcheck.svg and mime/packages/bidcheck.xml.
set -eu

folder=$(dirname "$(readlink -f "$0")")
data=${XDG_DATA_HOME:-$HOME/.local/share}
entry=$data/applications/bidcheck.desktop
icon=$data/icons/hicolor/scalable/apps/bidcheck.svg
mime=$data/mime/packages/bidcheck.xml

refresh() {  # the desktop's caches, where its tools are installed (a desktop without them reads the files)
    command -v update-desktop-database >/dev/null && update-desktop-database -q "$data/applications" || true
    command -v update-mime-database >/dev/null && update-mime-database "$data/mime" || true
    command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t "$data/icons/hicolor" || true
}

if [ "${1:-}" = "--remove" ]; then
    rm -f "$entry" "$icon" "$mime"
    refresh
    echo "bidcheck: removed from the application menu"
    exit 0
fi
if [ $# -gt 0 ]; then
    echo "usage: $0 [--remove]" >&2
    exit 2
fi
if [ ! -x "$folder/bidcheck-gui" ] || [ ! -f "$folder/_internal/resources/icons/bidcheck.svg" ]; then
    echo "bidcheck: $folder is not the bidcheck folder (bidcheck-gui and _internal/ belong beside this script)" >&2
    exit 1
fi

# The program's path as one argument of Exec: quoted, with ", `, $ and \ escaped inside the quotes, and
# every \ doubled once more because the whole value is a string of the desktop file.
program=$(printf '%s' "$folder/bidcheck-gui" | sed -e 's/[\\"`$]/\\&/g' -e 's/\\/\\\\/g')
tryexec=$(printf '%s' "$folder/bidcheck-gui" | sed -e 's/\\/\\\\/g')

mkdir -p "$(dirname "$entry")" "$(dirname "$icon")" "$(dirname "$mime")"
cp "$folder/_internal/resources/icons/bidcheck.svg" "$icon"
cat > "$mime" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
  <mime-type type="application/x-bidcheck">
    <comment>bidcheck saved check</comment>
    <comment xml:lang="zh_CN">bidcheck 检查结果</comment>
    <glob pattern="*.bidcheck"/>
  </mime-type>
</mime-info>
XML
cat > "$entry" <<DESKTOP
[Desktop Entry]
Type=Application
Version=1.0
Name=bidcheck
Name[zh_CN]=bidcheck 围标串标检查
GenericName=Bid collusion check
GenericName[zh_CN]=围标串标检查
Comment=Finds text the bids of one tender section share beyond the tender
Comment[zh_CN]=找出同一标段投标文件之间招标文件以外的共同文字
Exec="$program" %F
TryExec=$tryexec
Icon=bidcheck
Terminal=false
Categories=Office;
MimeType=application/x-bidcheck;
StartupWMClass=bidcheck
DESKTOP
refresh
echo "bidcheck: added to the application menu ($entry)"
