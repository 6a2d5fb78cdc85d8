-- LÖVE's configuration of the blockphys demo (main.lua).
function love.conf(t)
  local smoke = false
  for _, a in ipairs(arg or {}) do
    if a == "--smoke" then smoke = true end
  end
  t.identity = "blockphys-demo"
  t.version = "11.4"
  t.window.title = "blockphys: the lobby (Beta 1.7.3 rules)"
  t.window.width, t.window.height = 1280, 720
  t.window.depth = 24           -- the 3-D view's depth buffer
  t.window.msaa = smoke and 0 or 4
  t.window.vsync = smoke and 0 or 1
  t.window.resizable = not smoke
  t.modules.audio, t.modules.sound = false, false -- silent: no sound device needed
  t.modules.joystick, t.modules.physics, t.modules.video = false, false, false
end
