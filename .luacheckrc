-- luacheck configuration: `make lint` runs `luacheck lua spec examples bench`.
std = "lua54"
max_line_length = 120

-- Specs run under busted: describe/it/assert/spy/... are globals there.
files["spec"] = { std = "+busted" }

-- The LÖVE demo runs under LÖVE's LuaJIT, whose API is the global table `love`
-- (the demo sets its callbacks there: love.load, love.draw, ...).
files["examples/love"] = { std = "luajit", globals = { "love" } }

-- Build and LuaRocks trees may hold copies of lua/; never lint those.
exclude_files = { "build*/**", "luarocks-tree/**", "blockphys/**" } -- make's links to lua/
