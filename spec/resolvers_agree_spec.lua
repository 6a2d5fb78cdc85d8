-- luacheck: std +busted
-- Beta-rules entities keep the game's float fall distance whichever resolver moves
-- them (docs/beta173.md section 3e: fallDistance is a Java float).
local bp = require "blockphys"
local C = require "helpers.compat"

local function f32(x) return (C.unpack("f", C.pack("f", x))) end

describe("fall_distance under Beta rules", function()
  it("is the same float sum for the per-axis and the swept resolver", function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:fill(-2, 0, -2, 2, 0, 2, "stone")
    local axis = w:spawn{ x = 0.5, y = 10, z = 0.5, rules = bp.rules.beta173{ push = false } }
    local swept = w:spawn{ x = 0.5, y = 10, z = 1.5,
                           rules = bp.rules.beta173{ push = false, resolver = "swept" } }
    -- Expected: free fall from rest; vy after tick t is (vy - 0.08) * 0.98F, and each
    -- tick's drop is added to a float.
    local vy, fall = 0, 0
    for _ = 1, 7 do
      w:step()
      fall = f32(fall - vy)
      vy = (vy - 0.08) * 0.9800000190734863
    end
    assert.are.equal(fall, axis.fall_distance)
    assert.are.equal(fall, swept.fall_distance)
    assert.are.equal(1.5926045179367065, axis.fall_distance)
  end)
end)
