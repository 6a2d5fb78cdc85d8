-- luacheck: std +busted
-- Every bad input raises an exact message and changes nothing: blocks, stats and the
-- entity's state are compared before and after each failing call.
local bp = require "blockphys"
local C = require "helpers.compat"
local H = require "helpers.world"

local function snapshot(w, e)
  return { stats = w:stats(), block = w:get_block(0, 0, 0), types = w:block_id("new"),
           entity = H.state(e), rules = bp.rules.copy(e.rules) }
end

-- { description, function(w, e), exact message }
local cases = {
  -- blocks and coordinates
  { "set_block with a fractional coordinate", function(w) w:set_block(0.5, 0, 0, "stone") end,
    "bad argument #1 to 'set_block' (block coordinate must be an integer in the int32 range)" },
  { "set_block above int32", function(w) w:set_block(0, 2 ^ 31, 0, "stone") end,
    "bad argument #2 to 'set_block' (block coordinate must be an integer in the int32 range)" },
  { "set_block below int32", function(w) w:set_block(0, 0, -2 ^ 31 - 1, "stone") end,
    "bad argument #3 to 'set_block' (block coordinate must be an integer in the int32 range)" },
  { "set_block with NaN", function(w) w:set_block(0 / 0, 0, 0, "stone") end,
    "bad argument #1 to 'set_block' (block coordinate must be an integer in the int32 range)" },
  { "set_block with a string coordinate", function(w) w:set_block("x", 0, 0, "stone") end,
    "bad argument #1 to 'set_block' (number expected, got string)" },
  { "set_block with an unknown name", function(w) w:set_block(0, 0, 0, "nope") end,
    "bad argument #4 to 'set_block' (unknown block 'nope')" },
  { "set_block with an unknown id", function(w) w:set_block(0, 0, 0, 99) end,
    "bad argument #4 to 'set_block' (unknown block id 99)" },
  { "set_block with a negative id", function(w) w:set_block(0, 0, 0, -1) end,
    "bad argument #4 to 'set_block' (unknown block id -1)" },
  { "set_block with a table", function(w) w:set_block(0, 0, 0, {}) end,
    "bad argument #4 to 'set_block' (block id or name expected, got table)" },
  -- pins the type check of check_block (a boolean is neither id nor name)
  { "set_block with a boolean block", function(w) w:set_block(0, 0, 0, true) end,
    "bad argument #4 to 'set_block' (block id or name expected, got boolean)" },
  { "get_block with inf", function(w) w:get_block(0, math.huge, 0) end,
    "bad argument #2 to 'get_block' (block coordinate must be an integer in the int32 range)" },
  { "fill with an unknown block", function(w) w:fill(0, 0, 0, 1, 1, 1, "x") end,
    "bad argument #7 to 'fill' (unknown block 'x')" },
  { "fill outside int32", function(w) w:fill(0, 0, 0, 1, 2 ^ 40, 1, "stone") end,
    "bad argument #5 to 'fill' (block coordinate must be an integer in the int32 range)" },
  { "fill over too many chunks", function(w) w:fill(0, 0, 0, 2 ^ 20, 2 ^ 20, 0, "stone") end,
    "fill: region too large (4295098369 chunks of 16^3 blocks; at most 1048576)" },
  { "fill cutting too many chunks", function(w) w:fill(0, 0, 0, 16 * 65537 - 1, 0, 15, "stone") end,
    "fill: region cuts 65537 chunks of 16^3 blocks (at most 65536, which may need 8 KB each; "
      .. "fill in parts)" },
  { "block_info of an unknown id", function(w) w:block_info(500) end,
    "bad argument #1 to 'block_info' (unknown block id 500)" },
  { "boxes_in with a table", function(w) w:boxes_in{ 0, 0, 0, 1, 1, 1 } end,
    "bad argument #1 to 'boxes_in' (blockphys.Collider expected, got table)" },
  { "remove_collider of a never-added handle", function(w) w:remove_collider(12345) end,
    "bad argument #1 to 'remove_collider' (no such collider (removed, never added, or another world's))" },

  -- block definitions
  { "define_block with a duplicate name", function(w) w:define_block{ name = "stone" } end,
    "define_block: block 'stone' is already defined" },
  { "define_block redefining air", function(w) w:define_block{ name = "air" } end,
    "define_block: block 'air' is already defined" },
  { "define_block without a name", function(w) w:define_block{} end,
    "define_block: field 'name' must be a string" },
  { "define_block with an empty name", function(w) w:define_block{ name = "" } end,
    "define_block: name must be a non-empty string" },
  { "define_block with an unknown field", function(w) w:define_block{ name = "new", friction = 1 } end,
    "define_block: unknown field 'friction'" },
  { "define_block with min > max", function(w)
      w:define_block{ name = "new", boxes = { { 0, 0.5, 0, 1, 0.25, 1 } } } end,
    "define_block: box has min > max (or NaN)" },
  { "define_block with a box two blocks up", function(w)
      w:define_block{ name = "new", boxes = { { 0, 0, 0, 1, 2.5, 1 } } } end,
    "define_block: box Y must be in [0, 2] (at most one block above the cell)" },
  { "define_block with a box below the cell", function(w)
      w:define_block{ name = "new", boxes = { { 0, -0.5, 0, 1, 1, 1 } } } end,
    "define_block: box Y must be in [0, 2] (at most one block above the cell)" },
  { "define_block with a box outside on X", function(w)
      w:define_block{ name = "new", boxes = { { 0, 0, 0, 1.5, 1, 1 } } } end,
    "define_block: box leaves its cell on X or Z (coordinates must be in [0, 1])" },
  { "define_block with a box outside on Z", function(w)
      w:define_block{ name = "new", boxes = { { 0, 0, -0.25, 1, 1, 1 } } } end,
    "define_block: box leaves its cell on X or Z (coordinates must be in [0, 1])" },
  { "define_block with climbable a string", function(w) w:define_block{ name = "new", climbable = "no" } end,
    "define_block: field 'climbable' must be a boolean" },
  { "define_block with web a number", function(w) w:define_block{ name = "new", web = 0 } end,
    "define_block: field 'web' must be a boolean" },
  { "spawn with solid a string", function(w) w:spawn{ x = 0, y = 0, z = 0, solid = "no" } end,
    "spawn: field 'solid' must be a boolean" },
  { "define_block with a short box", function(w)
      w:define_block{ name = "new", boxes = { { 0, 0, 0, 1, 1 } } } end,
    "define_block: boxes[1][6] must be a finite number" },
  { "define_block with a NaN box", function(w)
      w:define_block{ name = "new", boxes = { { 0, 0, 0, 1, 1, 1 }, { 0, 0 / 0, 0, 1, 1, 1 } } } end,
    "define_block: boxes[2][2] must be a finite number" },
  -- pins the type check of box coordinates (a numeric string is not a number here)
  { "define_block with a string in a box", function(w)
      w:define_block{ name = "new", boxes = { { 0, 0, 0, "1", 1, 1 } } } end,
    "define_block: boxes[1][4] must be a finite number" },
  -- pins `n > BP_MAX_TYPE_BOXES` from the other side: 65 boxes are refused
  { "define_block with 65 boxes", function(w)
      local boxes = {}
      for i = 1, 65 do boxes[i] = { 0, 0, 0, 1, 1, 1 } end
      w:define_block{ name = "new", boxes = boxes } end,
    "define_block: too many boxes (at most 64)" },
  { "define_block with boxes whose __len is not an integer", function(w)
      w:define_block{ name = "new", boxes = setmetatable({}, { __len = function() return 1.5 end }) } end,
    "define_block: the length of boxes must be a non-negative integer" },
  { "define_block with boxes whose __len is negative", function(w)
      w:define_block{ name = "new", boxes = setmetatable({}, { __len = function() return C.MININT end }) } end,
    "define_block: the length of boxes must be a non-negative integer" },
  { "define_block with boxes not a table", function(w) w:define_block{ name = "new", boxes = 1 } end,
    "define_block: field 'boxes' must be a table of boxes" },
  { "define_block with a bad slipperiness", function(w)
      w:define_block{ name = "new", slipperiness = 2 } end,
    "define_block: slipperiness must be in [0, 1.5]" },
  { "define_block with an unknown liquid", function(w) w:define_block{ name = "new", liquid = "oil" } end,
    "define_block: field 'liquid' must be \"water\" or \"lava\"" },
  -- pins the type check of slipperiness (a string would read as 0, in range)
  { "define_block with slipperiness a string", function(w)
      w:define_block{ name = "new", slipperiness = "x" } end,
    "define_block: field 'slipperiness' must be a number" },
  -- table fields take numbers only, as boxes, spawn and rules do
  { "define_block with slipperiness a numeric string", function(w)
      w:define_block{ name = "new", slipperiness = "0.5" } end,
    "define_block: field 'slipperiness' must be a number" },
  { "define_block with velocity_factor a numeric string", function(w)
      w:define_block{ name = "new", velocity_factor = "0.5" } end,
    "define_block: field 'velocity_factor' must be a number" },
  -- pins that a truthy non-string liquid is refused, not read as no liquid
  { "define_block with liquid = true", function(w) w:define_block{ name = "new", liquid = true } end,
    "define_block: field 'liquid' must be \"water\" or \"lava\"" },
  { "define_block with a number", function(w) w:define_block(5) end,
    "bad argument #1 to 'define_block' (table expected, got number)" },

  -- spawn
  { "spawn without z", function(w) w:spawn{ x = 0, y = 0 } end,
    "spawn: field 'z' must be a finite number" },
  -- pins the type check of x, y, z (a string, even a numeric one, is not a position)
  { "spawn with a string coordinate", function(w) w:spawn{ x = 0, y = "1", z = 0 } end,
    "spawn: field 'y' must be a finite number" },
  -- pins the type check of vx, vy, vz and yaw (a non-numeric string would read as 0)
  { "spawn with a string velocity", function(w) w:spawn{ x = 0, y = 0, z = 0, vx = "fast" } end,
    "spawn: field 'vx' must be a finite number" },
  -- numeric strings too: table fields take numbers only (docs/conventions.md)
  { "spawn with a numeric string velocity", function(w) w:spawn{ x = 0, y = 0, z = 0, vy = "1" } end,
    "spawn: field 'vy' must be a finite number" },
  { "spawn with a numeric string yaw", function(w) w:spawn{ x = 0, y = 0, z = 0, yaw = "90" } end,
    "spawn: field 'yaw' must be a finite number" },
  { "spawn with a numeric string width", function(w) w:spawn{ x = 0, y = 0, z = 0, width = "0.5" } end,
    "spawn: field 'width' must be a number in (0, 16]" },
  { "spawn with a numeric string height", function(w) w:spawn{ x = 0, y = 0, z = 0, height = "1" } end,
    "spawn: field 'height' must be a number in (0, 32]" },
  { "spawn with NaN", function(w) w:spawn{ x = 0 / 0, y = 0, z = 0 } end,
    "spawn: field 'x' must be a finite number" },
  { "spawn outside the world", function(w) w:spawn{ x = 0, y = -3e9, z = 0 } end,
    "spawn: field 'y' is outside the world (|coordinate| > 2147482000)" },
  { "spawn with an unknown field", function(w) w:spawn{ x = 0, y = 0, z = 0, speed = 1 } end,
    "spawn: unknown field 'speed'" },
  { "spawn with a zero width", function(w) w:spawn{ x = 0, y = 0, z = 0, width = 0 } end,
    "spawn: field 'width' must be a number in (0, 16]" },
  -- pins `d->height > 0` (a `>=` would accept it)
  { "spawn with a zero height", function(w) w:spawn{ x = 0, y = 0, z = 0, height = 0 } end,
    "spawn: field 'height' must be a number in (0, 32]" },
  { "spawn too tall", function(w) w:spawn{ x = 0, y = 0, z = 0, height = 33 } end,
    "spawn: field 'height' must be a number in (0, 32]" },
  { "spawn with an infinite velocity", function(w) w:spawn{ x = 0, y = 0, z = 0, vy = -math.huge } end,
    "spawn: field 'vy' must be a finite number" },
  { "spawn with a fractional group", function(w) w:spawn{ x = 0, y = 0, z = 0, group = 1.5 } end,
    "spawn: field 'group' must be an integer in [0, 2^32)" },
  -- pins the integer check of integer rules (passes in [1, 16])
  { "spawn with a fractional integer rule", function(w)
      w:spawn{ x = 0, y = 0, z = 0, rules = { model = "mccpp", passes = 1.5 } } end,
    "spawn: rule 'passes' must be an integer" },
  { "spawn with rules not a table", function(w) w:spawn{ x = 0, y = 0, z = 0, rules = 5 } end,
    "spawn: rules must be a table (from bp.rules.beta173 or bp.rules.mccpp)" },
  { "spawn with an unknown rule", function(w) w:spawn{ x = 0, y = 0, z = 0, rules = { jump_power = 1 } } end,
    "spawn: unknown rule 'jump_power' for model beta173" },

  -- rules
  { "a rules preset with an unknown rule", function() bp.rules.beta173{ jump_power = 1 } end,
    "bp.rules.beta173: unknown rule 'jump_power' for model beta173" },
  { "a rules preset with a string number", function() bp.rules.beta173{ gravity = "0.08" } end,
    "bp.rules.beta173: rule 'gravity' must be a number" },
  { "a rules preset with NaN", function() bp.rules.beta173{ gravity = 0 / 0 } end,
    "bp.rules.beta173: rule 'gravity' must be a number in [-1000000, 1000000]" },
  { "a rules preset out of range", function() bp.rules.beta173{ camera_decay = 2 } end,
    "bp.rules.beta173: rule 'camera_decay' must be a number in [0, 1]" },
  { "a rules preset with a non-boolean flag", function() bp.rules.beta173{ step_sink_fix = 1 } end,
    "bp.rules.beta173: rule 'step_sink_fix' must be a boolean" },
  { "a rules preset with a bad resolver", function() bp.rules.beta173{ resolver = "fast" } end,
    "bp.rules.beta173: rule 'resolver' must be one of \"axis\", \"swept\"" },
  { "a rules preset with a bad push model", function() bp.rules.beta173{ push = true } end,
    "bp.rules.beta173: rule 'push' must be \"beta173\", \"separate\" or false" },
  { "a rules preset with a mccpp-only rule", function() bp.rules.beta173{ friction = { 1, 2, 3 } } end,
    "bp.rules.beta173: rule 'friction' belongs to model mccpp, not beta173" },
  { "a beta173 preset asked for model mccpp", function() bp.rules.beta173{ model = "mccpp" } end,
    "bp.rules.beta173: rule 'model' cannot change (make new rules with bp.rules.mccpp)" },
  { "a mccpp preset asked for model beta173", function() bp.rules.mccpp{ model = "beta173" } end,
    "bp.rules.mccpp: rule 'model' cannot change (make new rules with bp.rules.beta173)" },
  { "a rules preset with an unknown model", function() bp.rules.beta173{ model = "alpha" } end,
    "bp.rules.beta173: rule 'model' must be one of \"beta173\", \"mccpp\"" },
  { "a rules preset with a non-function hook", function() bp.rules.beta173{ heading = 5 } end,
    "bp.rules.beta173: hook 'heading' must be a function or nil" },
  -- pins that only false (not true) stands for "no hook"
  { "spawn with a hook set to true", function(w)
      w:spawn{ x = 0, y = 0, z = 0, rules = { heading = true } } end,
    "spawn: hook 'heading' must be a function or nil" },
  -- range bounds (csrc/rules.c, bp_rule_fields: inclusive [min, max]); just outside
  { "a rules preset with 0 passes", function() bp.rules.beta173{ passes = 0 } end,
    "bp.rules.beta173: rule 'passes' must be a number in [1, 16]" },
  { "a rules preset with 17 passes", function() bp.rules.mccpp{ passes = 17 } end,
    "bp.rules.mccpp: rule 'passes' must be a number in [1, 16]" },
  { "a rules preset with guard_step 0.0005", function() bp.rules.beta173{ guard_step = 0.0005 } end,
    "bp.rules.beta173: rule 'guard_step' must be a number in [0.001, 16]" },
  { "a rules preset with guard_step 0.00099", function() bp.rules.beta173{ guard_step = 0.00099 } end,
    "bp.rules.beta173: rule 'guard_step' must be a number in [0.001, 16]" },
  { "a rules preset with default_slipperiness 0", function()
      bp.rules.beta173{ default_slipperiness = 0 } end,
    "bp.rules.beta173: rule 'default_slipperiness' must be a number in [0.01, 10]" },
  { "a rules preset with default_slipperiness 0.0099", function()
      bp.rules.beta173{ default_slipperiness = 0.0099 } end,
    "bp.rules.beta173: rule 'default_slipperiness' must be a number in [0.01, 10]" },
  { "a rules preset with back_off 0.75", function() bp.rules.beta173{ back_off = 0.75 } end,
    "bp.rules.beta173: rule 'back_off' must be a number in [0, 0.5]" },
  { "a rules preset with back_off just above 0.5", function() bp.rules.mccpp{ back_off = 0.5000001 } end,
    "bp.rules.mccpp: rule 'back_off' must be a number in [0, 0.5]" },
  { "a rules preset with a negative back_off", function() bp.rules.mccpp{ back_off = -0.001 } end,
    "bp.rules.mccpp: rule 'back_off' must be a number in [0, 0.5]" },
  { "a rules preset with a negative friction X", function() bp.rules.mccpp{ friction = { -1, 20, 20 } } end,
    "bp.rules.mccpp: rule 'friction' must be a number in [0, 1000000]" },
  { "a rules preset with a negative friction Z", function() bp.rules.mccpp{ friction = { 20, 20, -1 } } end,
    "bp.rules.mccpp: rule 'friction' must be a number in [0, 1000000]" },
  { "a rules preset with a negative jump_height", function() bp.rules.mccpp{ jump_height = -0.1 } end,
    "bp.rules.mccpp: rule 'jump_height' must be a number in [0, 1000000]" },
  { "a rules preset with step_height 16.5", function() bp.rules.beta173{ step_height = 16.5 } end,
    "bp.rules.beta173: rule 'step_height' must be a number in [0, 16]" },
  { "a rules preset with a negative step_height", function() bp.rules.mccpp{ step_height = -0.01 } end,
    "bp.rules.mccpp: rule 'step_height' must be a number in [0, 16]" },
  -- rules of the other model (bp_rule_fields' model bits)
  { "a mccpp preset with the beta173 jump_impulse", function() bp.rules.mccpp{ jump_impulse = 0.42 } end,
    "bp.rules.mccpp: rule 'jump_impulse' belongs to model beta173, not mccpp" },
  { "a beta173 preset with the mccpp jump_height", function() bp.rules.beta173{ jump_height = 1 } end,
    "bp.rules.beta173: rule 'jump_height' belongs to model mccpp, not beta173" },
  { "e.rules view write of the other model's rule", function(_, e) e.rules.jump_height = 1 end,
    "entity.rules: rule 'jump_height' belongs to model mccpp, not beta173" },
  { "a rules table assignment to an unknown key", function() bp.rules.beta173().gravty = 1 end,
    "unknown rule 'gravty'" },
  { "a rules table assignment of the other model's rule", function() bp.rules.beta173().jump_height = 1 end,
    "unknown rule 'jump_height'" },
  { "a rules table's own __newindex called on a number", function()
      debug.getmetatable(bp.rules.beta173()).__newindex(42, "jump", print) end,
    "bad argument #1 to '__newindex' (table expected, got number)" },
  { "a rules table whose hook was set to a number, used", function(w)
      local r = bp.rules.mccpp(); r.jump = 1; w:spawn{ x = 0, y = 0, z = 0, rules = r } end,
    "spawn: hook 'jump' must be a function or nil" },
  { "e.rules with an unknown rule", function(_, e) e.rules = { gravty = 1 } end,
    "entity.rules: unknown rule 'gravty' for model beta173" },
  { "e.rules view write of an unknown rule", function(_, e) e.rules.gravty = 1 end,
    "entity.rules: unknown rule 'gravty' for model beta173" },
  { "e.rules view write out of range", function(_, e) e.rules.sneak_factor = -1 end,
    "entity.rules: rule 'sneak_factor' must be a number in [0, 10]" },
  { "e.rules view read of an unknown rule", function(_, e) return e.rules.gravty end,
    "unknown rule 'gravty' for model beta173" },
  { "e.rules view read of the other model's rule", function(_, e) return e.rules.walk_speed end,
    "rule 'walk_speed' belongs to model mccpp, not beta173" },
  { "spawn with a preset table whose model was changed", function(w)
      local r = bp.rules.mccpp(); r.model = "beta173"; w:spawn{ x = 0, y = 5, z = 0, rules = r } end,
    "spawn: rule 'jump_height' belongs to model mccpp, not beta173" }, -- first in field order
  { "e.rules view hook not a function", function(_, e) e.rules.jump = 1 end,
    "entity.rules: hook 'jump' must be a function or nil" },

  -- entities and moves
  { "e:move too far", function(_, e) e:move(0, 0, -1025) end,
    "bad argument #3 to 'move' (displacement too large (at most 1024 blocks per axis))" },
  { "e:move with inf", function(_, e) e:move(math.huge, 0, 0) end,
    "bad argument #1 to 'move' (number must be finite)" },
  { "e:move with a string", function(_, e) e:move(0, "up", 0) end,
    "bad argument #2 to 'move' (number expected, got string)" },
  { "e:teleport outside the world", function(_, e) e:teleport(0, 0, 2147483000) end,
    "bad argument #3 to 'teleport' (position outside the world (|coordinate| > 2147482000))" },
  { "e.forward out of range", function(_, e) e.forward = 2 end,
    "entity field 'forward' must be in [-1, 1]" },
  { "a step with a velocity too large", function(w, e) e.vx = 2000; w:step() end,
    "world:step: entity 1 would move 2000 blocks in one step (at most 1024 per axis)" },
  { "a step with a negative dt", function(w) w:step(-0.05) end,
    "bad argument #1 to 'step' (dt must be positive)" },
  { "a step with an infinite dt", function(w) w:step(math.huge) end,
    "bad argument #1 to 'step' (number must be finite)" },
}

describe("bad input", function()
  for _, c in ipairs(cases) do
    local what, fn, message = c[1], c[2], c[3]
    it(what .. " raises and changes nothing", function()
      local w = H.world()
      w:set_block(0, 0, 0, "stone")
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5, vx = 0.25 }
      local before = snapshot(w, e)
      local vx = e.vx
      assert.has_error(function() fn(w, e) end, message)
      if what == "a step with a velocity too large" then
        assert.equal(2000, e.vx); e.vx = vx -- the only change is the test's own write
      end
      assert.same(before, snapshot(w, e))
    end)
  end

  it("a rules preset accepts its own model as an override", function()
    assert.equal("beta173", bp.rules.beta173{ model = "beta173" }.model)
    assert.equal("mccpp", bp.rules.mccpp{ model = "mccpp", gravity = 0.5 }.model)
    assert.equal(0.5, bp.rules.mccpp{ model = "mccpp", gravity = 0.5 }.gravity)
  end)

  -- The inclusive bounds themselves are accepted (just inside each case above).
  it("a rules preset accepts each range bound itself", function()
    local b = bp.rules.beta173{ passes = 1, guard_step = 0.001, default_slipperiness = 0.01,
                                back_off = 0.5, step_height = 16 }
    assert.same({ 1, 0.001, 0.01, 0.5, 16 },
                { b.passes, b.guard_step, b.default_slipperiness, b.back_off, b.step_height })
    local m = bp.rules.mccpp{ passes = 16, back_off = 0, friction = { 0, 0, 0 }, jump_height = 0,
                              step_height = 0 }
    assert.same({ 16, 0, 0, 0 }, { m.passes, m.back_off, m.jump_height, m.step_height })
    assert.same({ 0, 0, 0 }, m.friction)
    assert.equal(16, bp.rules.mccpp{ step_height = 16 }.step_height)
    assert.equal(1000000, bp.rules.mccpp{ friction = { 1e6, 1e6, 1e6 } }.friction[3])
    -- and through an entity's live view
    local e = H.world():spawn{ x = 0.5, y = 1, z = 0.5 }
    e.rules.step_height = 16
    e.rules.guard_step = 0.001
    assert.same({ 16, 0.001 }, { e.rules.step_height, e.rules.guard_step })
  end)

  -- The MC-CPP preset has no sneak edge guard (docs/mccpp.md, the rules table: sneak_guard false).
  -- Only the per-axis resolver has one, so the entity uses resolver = "axis" (and e:move,
  -- always per-axis): sneaking at the edge of the floor (x = 9) it goes over, where the
  -- same entity with sneak_guard = true is held: the guard shortens the move by
  -- guard_step 0.05 until the box pushed down 1 still overlaps the floor, 0.8 here
  -- (box min 8.2 - 1.2e-8, half of 0.6F, + 0.8 stays 1.2e-8 short of the edge).
  it("the MC-CPP preset's sneak_guard is false: a sneaking MC-CPP entity walks off a ledge", function()
    assert.is_false(bp.rules.mccpp().sneak_guard)
    assert.is_false(bp.rules.mccpp{ resolver = "axis" }.sneak_guard)
    assert.is_true(bp.rules.beta173().sneak_guard)
    local function at_edge(rules)
      local w = H.stone_floor(8) -- top y = 64 over x in [-8, 9)
      local e = w:spawn{ x = 8.5, y = 64, z = 0.5, rules = rules, yaw = -90 } -- faces +X
      e:move(0, -0.1, 0) -- lands: on the ground
      e.sneaking = true
      return w, e
    end
    local _, e = at_edge(bp.rules.mccpp{})
    assert.is_true(e.on_ground)
    assert.same({ 1, 0, 0 }, { e:move(1, 0, 0) })
    local _, guarded = at_edge(bp.rules.mccpp{ sneak_guard = true })
    assert.is_near(0.8, (guarded:move(1, 0, 0)), 1e-12) -- held at x = 9.3
    -- walking at dt = 0.01 (no grounded flicker): 100 steps take it over and down
    local w
    w, e = at_edge(bp.rules.mccpp{ resolver = "axis" })
    e.forward = 1
    for _ = 1, 100 do w:step(0.01) end
    assert.is_true(e.x > 9.3 and e.y < 64, ("x %.17g y %.17g"):format(e.x, e.y))
    w, guarded = at_edge(bp.rules.mccpp{ resolver = "axis", sneak_guard = true })
    guarded.forward = 1
    for _ = 1, 100 do w:step(0.01) end
    assert.equal(64, guarded.y)
    assert.is_true(guarded.x < 9.3)
  end)

  it("a removed entity raises in a move and is not stepped", function()
    local w = H.world()
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    w:remove(e)
    local stats = w:stats()
    assert.has_error(function() e:move(1, 0, 0) end,
      "calling 'move' on bad self (entity has been removed)")
    w:step()
    assert.same(stats, w:stats())
  end)
end)

-- Limits accepted at their exact bound (mutation testing of lblockphys.c: a `>` turned
-- into `>=` in a check must fail here). Air into an empty world stores nothing, so
-- these stay fast.
describe("limits at their exact bound", function()
  it("bp.limits lists the eleven limits and refuses writes", function()
    local seen = {}
    for k, v in C.pairs(bp.limits) do seen[k] = v end
    assert.are.same({ max_move = 1024, max_coord = 2147482000, max_width = 16, max_height = 32,
      max_fill_chunks = 1048576, max_fill_cut_chunks = 65536, max_query_cells = 16777216,
      max_query_boxes = 1048576, max_ray = 4096, min_dt = 1e-06, max_dt = 1 }, seen)
    H.raises_here("bp.limits is read-only (cannot set 'max_move': the limits are fixed)",
      function() bp.limits.max_move = 5 end)
    H.raises_here("bp.limits is read-only (cannot set 'new': the limits are fixed)",
      function() bp.limits.new = 5 end)
    assert.equal(1024, bp.limits.max_move)
    -- a private copy: the C module's own (internal, writable) table does not show through
    local core_limits = require("blockphys.core").limits
    core_limits.max_move = 5
    assert.equal(1024, bp.limits.max_move)
    core_limits.max_move = 1024
    assert.has_error(function() bp.World():spawn{ x = 0, y = 0, z = 0 }:move(1025, 0, 0) end)
  end)

  it("fill accepts exactly 1048576 chunks", function()
    -- pins `chunks > BP_MAX_FILL_CHUNKS` (1024 x 1 x 1024 whole chunks)
    local w = bp.World()
    assert.has_no_error(function() w:fill(0, 0, 0, 16 * 1024 - 1, 15, 16 * 1024 - 1, "air") end)
    assert.has_error(function() w:fill(0, 0, 0, 16 * 1024 - 1, 31, 16 * 1024 - 1, "air") end,
      "fill: region too large (2097152 chunks of 16^3 blocks; at most 1048576)")
  end)

  it("fill accepts a region cutting exactly 65536 chunks", function()
    -- pins `cut > MAX_FILL_CUT_CHUNKS`
    local w = bp.World()
    assert.has_no_error(function() w:fill(0, 0, 0, 16 * 65536 - 1, 0, 15, "air") end)
  end)
  it("boxes_in accepts a region of exactly 16777216 cells", function()
    -- pins `> MAX_QUERY_CELLS` in check_query_region (256^3 cells)
    local w = bp.World()
    assert.same({}, w:boxes_in(bp.Collider(0, 0, 0, 256, 256, 256)))
    assert.has_error(function() w:boxes_in(bp.Collider(0, 0, 0, 256, 256, 256.5)) end,
      "boxes_in: region too large (more than 16777216 cells)")
  end)

  it("sweep accepts a region of exactly 16777216 cells", function()
    -- pins `> MAX_QUERY_CELLS` in sweep: the range counts touching cells, so a box
    -- [0.5, 255.5]^3 spans 256^3 cells
    local w = bp.World()
    local t = w:sweep(bp.Collider(0.5, 0.5, 0.5, 255.5, 255.5, 255.5), 1e-9, 0, 0)
    assert.equal(1, t)
    assert.has_error(function() w:sweep(bp.Collider(0.5, 0.5, 0.5, 255.5, 255.5, 256.5), 1e-9, 0, 0) end,
      "sweep: region too large (more than 16777216 cells)")
    -- a still box scans nothing, however large
    assert.equal(1, (w:sweep(bp.Collider(0, 0, 0, 4096, 4096, 4096), 0, 0, 0)))
  end)

  it("remove_collider reads the whole 24-bit slot of a handle", function()
    -- pins the 24-bit slot mask: slot 65537 is not slot 1
    local w = bp.World()
    local h = w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1))
    assert.has_error(function() w:remove_collider(h + 65536) end,
      "bad argument #1 to 'remove_collider' (no such collider (removed, never added, or another world's))")
    assert.equal(1, w:stats().colliders)
    w:remove_collider(h)
    assert.equal(0, w:stats().colliders)
  end)
  it("teleport accepts a position at exactly limits.max_coord", function()
    -- pins `fabs(p[a]) > BP_MAX_COORD` in check_position
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 0, z = 0 }
    local M = bp.limits.max_coord
    e:teleport(-M, M, M)
    assert.same({ -M, M, M }, { e:position() })
    assert.has_error(function() e:teleport(0, 0, M + 1) end,
      "bad argument #3 to 'teleport' (position outside the world (|coordinate| > 2147482000))")
  end)
  it("world:step accepts a velocity of exactly 1024 blocks per tick", function()
    -- pins `m > BP_MAX_MOVE` in the step's pre-check
    local w = bp.World()
    local e = w:spawn{ x = 0.5, y = 100, z = 0.5, vx = 1024 }
    w:step()
    assert.same({ 1024.5, 100, 0.5 }, { e:position() })
    e.vx = -1024.001
    assert.has_error(function() w:step() end,
      "world:step: entity 1 would move 1024.001 blocks in one step (at most 1024 per axis)")
  end)
  it("fill counts a chunk cut at its low end as cut", function()
    -- pins the ceil of the low corner in whole_chunk_span: x in [1, 15] covers no whole
    -- chunk, so all 1 x 256 x 257 chunks are cut
    local w = bp.World()
    assert.has_error(function() w:fill(1, 0, 0, 15, 16 * 256 - 1, 16 * 257 - 1, "air") end,
      "fill: region cuts 65792 chunks of 16^3 blocks (at most 65536, which may need 8 KB each; "
        .. "fill in parts)")
  end)

  it("spawn accepts a position at exactly limits.max_coord, not one block beyond", function()
    -- pins `fabs(*pos[a]) > BP_MAX_COORD` in spawn
    local w = bp.World()
    local M = bp.limits.max_coord
    local e = w:spawn{ x = -M, y = M, z = M }
    assert.same({ -M, M, M }, { e:position() })
    assert.has_error(function() w:spawn{ x = 0, y = M + 1, z = 0 } end,
      "spawn: field 'y' is outside the world (|coordinate| > 2147482000)")
  end)
  it("world:step(nil) steps with the default dt", function()
    -- pins lua_isnoneornil in opt_finite: an explicit nil dt is the default, not an error
    local w = bp.World()
    local e = w:spawn{ x = 0.5, y = 100, z = 0.5, vx = 1, rules = bp.rules.mccpp{ integrator = "mccpp" } }
    w:step(nil)
    assert.equal(0.55, e.x) -- 1 block/s for 0.05 s
  end)
end)

-- Lua seeds each state's string hashes, so pairs/next order differs between runs of
-- the same script. Of several problems in one table, the reported one must not depend
-- on that order: each table below holds twenty bad keys inserted in a different order.
describe("errors do not depend on hash order", function()
  local NAMES = {}
  for i = 1, 20 do NAMES[i] = ("k%02d"):format(i) end

  -- Eight tables: `base` plus the twenty names (value v), each inserted in another order.
  local function tables(base, v)
    local out = {}
    for shift = 0, 7 do
      local t = {}
      for k, x in pairs(base) do t[k] = x end
      for i = 1, #NAMES do t[NAMES[(i * 7 + shift * 3) % #NAMES + 1]] = v end
      out[#out + 1] = t
    end
    return out
  end

  local function same_error(fn, expected)
    for _, t in ipairs(tables(fn.base, fn.value or 1)) do
      local ok, err = pcall(fn.call, t)
      assert.is_false(ok)
      assert.equal(expected, (tostring(err):gsub("^[^:]*:%d+: ", "")))
    end
  end

  it("rules tables report the first unknown name in sort order", function()
    same_error({ base = {}, call = bp.rules.beta173 }, "bp.rules.beta173: unknown rule 'k01' for model beta173")
    same_error({ base = {}, call = function(t) bp.World():spawn{ x = 0, y = 0, z = 0, rules = t } end },
      "spawn: unknown rule 'k01' for model beta173")
  end)

  it("rules tables check values in a fixed order (resolver, push, then the fields)", function()
    local rules = bp.rules.beta173()
    for _, bad in ipairs{ { "gravity", "x" }, { "sneak_factor", -1 }, { "push", "no" } } do
      rules[bad[1]] = bad[2]
    end
    local e = bp.World():spawn{ x = 0, y = 0, z = 0 }
    assert.has_error(function() e.rules = rules end,
      "entity.rules: rule 'push' must be \"beta173\", \"separate\" or false")
    rules.push = false
    assert.has_error(function() e.rules = rules end,
      "entity.rules: rule 'sneak_factor' must be a number in [0, 10]")
  end)

  it("define_block and spawn report the first unknown field in sort order", function()
    local w = bp.World()
    same_error({ base = { name = "b" }, call = function(t) w:define_block(t) end },
      "define_block: unknown field 'k01'")
    same_error({ base = { x = 0, y = 0, z = 0 }, call = function(t) w:spawn(t) end },
      "spawn: unknown field 'k01'")
  end)

  it("name a key that is neither a string nor a number by its type, never its address", function()
    local w = bp.World()
    assert.has_error(function() w:spawn{ x = 0, y = 0, z = 0, [{}] = 1 } end,
      "spawn: unknown field '(a table key)'")
    assert.has_error(function() w:define_block{ name = "b", [print] = 1, [true] = 2 } end,
      "define_block: unknown field '(a function key)'") -- "(" sorts before "true"
    assert.has_error(function() w:define_block{ name = "b", [false] = 2, [7] = 1 } end,
      "define_block: unknown field '7'")
    local ok, err = pcall(function() bp.rules.beta173()[{}] = 1 end)
    assert.is_false(ok)
    assert.truthy(err:find("unknown rule '(a table key)'", 1, true))
  end)

  it("name a hook's error value by its text or type, never its address", function()
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 0, z = 0 }
    local function failure(v)
      e.rules.jump = function() error(v, 0) end
      e.jumping = true
      local ok, err = pcall(w.step, w)
      assert.is_false(ok)
      return (err:gsub("^world:step: rules hook 'jump' of entity 1 failed: ", ""))
    end
    assert.equal("(a table value)", failure({}))
    assert.equal("(a function value)", failure(print))
    assert.equal("(a table value)", failure(setmetatable({}, { __name = "N" })))
    assert.equal("custom", failure(setmetatable({}, { __tostring = function() return "custom" end })))
    assert.equal("42", failure(42))
    assert.equal("oops", failure("oops"))
    assert.equal("a\0b", failure("a\0b")) -- whole, past a NUL byte
  end)

  it("the loaders report the first unknown option in sort order", function()
    local doc = "\10\0\0\0" -- an empty NBT compound named ""
    for _, t in ipairs(tables({}, 1)) do
      assert.same({ nil, "nbt: unknown option k01 (only max_depth)" }, { bp.nbt.decode(doc, t) })
      assert.same({ nil, "schematic: unknown option k01 (only max_bytes)" }, { bp.schematic.load(doc, t) })
    end
  end)

  -- A C function called through pcall has no name of its own, so Lua names it by
  -- the first place it finds it in package.loaded (two levels deep): with two such
  -- places, which one depends on the hash order of package.loaded.
  it("each C function has one name in package.loaded, so unnamed calls are reported alike", function()
    local seen = {}
    for modname, mod in pairs(package.loaded) do
      if type(mod) == "table" and modname ~= "_G" then
        for k, f in pairs(mod) do
          if type(f) == "function" and debug.getinfo(f, "S").what == "C" then
            seen[f] = seen[f] or {}
            table.insert(seen[f], modname .. "." .. tostring(k))
          end
        end
      end
    end
    local ours = 0
    for _, names in pairs(seen) do
      table.sort(names)
      if table.concat(names, " "):find("%f[%w]blockphys") then
        ours = ours + 1
        assert.equal(1, #names, table.concat(names, " and "))
      end
    end
    assert.is_true(ours >= 3) -- World, Collider, make_rules at least
    assert.same({ false, "bad argument #1 to 'blockphys.Collider' (number must be finite)" },
      { pcall(bp.Collider, 0 / 0, 0, 0, 1, 1, 1) })
  end)
end)

describe("metatables changed by a script", function()
  it("a replaced or removed methods table gives nil for unknown keys, not a crash", function()
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 0, z = 0 }
    local c = bp.Collider(0, 0, 0, 1, 1, 1)
    local me, mc = debug.getmetatable(e), debug.getmetatable(c)
    local saved_e, saved_c = me.methods, mc.methods
    me.methods, mc.methods = 5, nil
    local ok_e, v_e = pcall(function() return e.no_such_field end)
    local ok_c, v_c = pcall(function() return c.foo end)
    me.methods, mc.methods = saved_e, saved_c
    assert.same({ true, nil, true, nil }, { ok_e, v_e, ok_c, v_c })
    assert.equal(0, e.x) -- fields still read through the C lookup
    assert.is_function(e.move)
  end)

  it("metamethods called directly with wrong arguments raise or do nothing", function()
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 0, z = 0 }
    local c = bp.Collider(0, 0, 0, 1, 1, 1)
    local view = e.rules
    for _, mt in ipairs{ debug.getmetatable(e), debug.getmetatable(c), debug.getmetatable(view) } do
      for _, f in pairs(mt) do
        if type(f) == "function" then
          for _, args in ipairs{ {}, { w }, { c }, { 1, 2 }, { c, c }, { view, "x" } } do
            pcall(f, C.unpack_table(args))
          end
        end
      end
    end
    assert.equal(0, e.x)
    debug.getmetatable(w).__gc(w) -- destroys the world, as w:destroy() does
    debug.getmetatable(w).__gc(w) -- a second time is a no-op
    collectgarbage()
    assert.is_false(e:valid())
    assert.has_error(function() w:step() end)
  end)
end)

describe("metamethods in rules values", function()
  it("a vector's metamethod that changes the hooks is not undone by the write", function()
    -- e.rules.friction = t reads t[1..3] before copying the rules it changes
    local w = bp.World()
    local m = w:spawn{ x = 0.5, y = 0, z = 0.5, rules = bp.rules.mccpp{ heading = function() return 0, 0 end } }
    m.rules.friction = setmetatable({}, { __index = function() m.rules.heading = nil; return 20 end })
    assert.is_nil(m.rules.heading)
    m.forward = 1
    assert.has_no_error(function() w:step() end) -- no call of a hook that is gone
    assert.same({ 20, 20, 20 }, m.rules.friction)
    local called = false
    m.rules.friction = setmetatable({}, { __index = function()
      m.rules.heading = function() called = true; return 0, 0 end
      return 10
    end })
    w:step()
    assert.is_true(called) -- the hook installed meanwhile runs
    assert.same({ 10, 10, 10 }, m.rules.friction)
  end)

  it("spawn and bp.rules.copy read hooks raw too, and spawn checks the filter it stores", function()
    local w = bp.World()
    local sneaky = setmetatable({}, { __index = function(_, k)
      if k == "jump" then return 42 end
      if k == "heading" then return function() error("never called") end end
    end })
    local e = w:spawn{ x = 0.5, y = 0, z = 0.5, rules = sneaky }
    assert.same({ nil, nil }, { e.rules.jump, e.rules.heading })
    local copy = bp.rules.copy(sneaky)
    assert.same({ nil, nil }, { rawget(copy, "jump"), rawget(copy, "heading") })
    e.jumping, e.forward = true, 1
    assert.has_no_error(function() w:step() end)
    local reads = 0
    local def = setmetatable({ x = 0, y = 0, z = 0 }, { __index = function(_, k)
      if k ~= "filter" then return nil end
      reads = reads + 1
      if reads == 1 then return function() return true end end
      return "not a function"
    end })
    assert.has_error(function() w:spawn(def) end, "spawn: field 'filter' must be a function or nil")
    assert.equal(1, #w:entities())
  end)

  it("rules tables are read raw: a hook or rule behind __index is not used", function()
    local w = bp.World()
    local e = w:spawn{ x = 0.5, y = 0, z = 0.5 }
    e.rules = setmetatable({}, { __index = function(_, k)
      if k == "heading" then return function() error("never called") end end
      if k == "jump_impulse" then return 5 end
    end })
    assert.is_nil(e.rules.heading)
    assert.equal(bp.rules.beta173().jump_impulse, e.rules.jump_impulse)
    e.forward = 1
    assert.has_no_error(function() w:step() end)
  end)

  -- Each step names its failing hook and passes the inner message on; at the nesting
  -- limit (or Lua's C stack limit, wherever it comes first) the innermost text must
  -- still arrive (a call to turn it into text fails there).
  it("hooks stepping other worlds to the nesting limit end in its message", function()
    local worlds = {}
    local function make()
      local w = bp.World()
      w:define_block{ name = "stone" }
      w:fill(-2, -1, -2, 2, -1, 2, "stone")
      w:spawn{ x = 0.5, y = 0, z = 0.5, rules = bp.rules.beta173{ jump = function()
        make():step()
      end } }.jumping = true
      worlds[#worlds + 1] = w
      return w
    end
    local first = make()
    local ok, err = pcall(first.step, first)
    assert.is_false(ok)
    assert.truthy(err:find("^world:step: rules hook 'jump' of entity 1 failed: world:step: "), err:sub(1, 200))
    -- the binding's limit (100 nested steps, moves); Lua's own: "C stack overflow"
    -- (LuaJIT: "stack overflow")
    assert.truthy(err:find(": world:step: too many nested calls (world:step, e:move and "
        .. "e:move_swept called from hooks and filters: at most 100 deep)", 1, true)
      or err:find(": C stack overflow$") or C.JIT and err:find(": stack overflow$"), err:sub(-200))
    assert.is_true(#worlds > 10)
    for _, w in ipairs(worlds) do -- every step was undone and unlocked
      assert.equal(0, w:entities()[1].y)
      w:define_block{ name = "after" }
    end
  end)
end)
