; Inno Setup script of the Windows installer. It wraps the folder that build.ps1 freezes with PyInstaller
; (dist\bidcheck, from installer\bidcheck.spec: the spec `make installer` builds and tests on Linux).
; Installs per user without administrator rights (or for all users, if the user chooses so), with
; Start-menu and desktop shortcuts, .bidcheck files opening in the app, and an uninstaller.
#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif

[Setup]
AppId={{6F0C5E2A-3B7D-4C1F-9A8E-2D4B6C8E0F13}
AppName=bidcheck
AppVersion={#AppVersion}
AppPublisher=bidcheck
DefaultDirName={autopf}\bidcheck
DefaultGroupName=bidcheck
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
ChangesAssociations=yes
UninstallDisplayIcon={app}\bidcheck-gui.exe
SetupIconFile=build\bidcheck.ico
SourceDir=..\..
OutputDir=dist
OutputBaseFilename=bidcheck-{#AppVersion}-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"

[Files]
Source: "dist\bidcheck\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\bidcheck"; Filename: "{app}\bidcheck-gui.exe"
Name: "{group}\{cm:UninstallProgram,bidcheck}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\bidcheck"; Filename: "{app}\bidcheck-gui.exe"; Tasks: desktopicon

[Registry]
; HKA is the user's own classes in a per-user install, the machine's in an all-users one.
Root: HKA; Subkey: "Software\Classes\.bidcheck"; ValueType: string; ValueName: ""; ValueData: "bidcheck.check"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\bidcheck.check"; ValueType: string; ValueName: ""; ValueData: "bidcheck check"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\bidcheck.check\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\bidcheck-gui.exe,0"
Root: HKA; Subkey: "Software\Classes\bidcheck.check\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\bidcheck-gui.exe"" ""%1"""

[Run]
Filename: "{app}\bidcheck-gui.exe"; Description: "{cm:LaunchProgram,bidcheck}"; Flags: nowait postinstall skipifsilent
