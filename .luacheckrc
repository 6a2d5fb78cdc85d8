-- luacheck configuration: `make lint` runs `luacheck lua spec examples bench`.
std = "lua54"
max_line_length = 120

-- Specs run under busted: describe/it/assert/spy/... are globals there.
files["spec"] = { std = "+busted" }

-- Build and LuaRocks trees may hold copies of lua/; never lint those.
exclude_files = { "build*/**", "luarocks-tree/**", "blockphys/**" } -- make's links to lua/
