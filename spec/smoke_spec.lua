local bp = require "blockphys"
describe("smoke", function()
  it("jumps 1.2522 blocks", function()
    local w = bp.World()
    w:fill(-2, 63, -2, 2, 63, 2, w:define_block{ name = "stone" })
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    w:step(); w:step()
    e.jumping = true
    local top = 0
    for _ = 1, 12 do w:step(); top = math.max(top, e.y) end
    assert.is_near(65.2522033402537, top, 1e-9)
  end)
end)
