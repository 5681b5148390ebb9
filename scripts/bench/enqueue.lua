-- wrk: enqueue distinct alerts into many sessions (each round its own, so no session fills up), as the admin.
local admin = os.getenv("ADMIN")
-- A JSON member every enqueue carries (PACING, e.g. "pacing":{...}), or none.
local pacing = os.getenv("PACING") or ""
if pacing ~= "" then pacing = "," .. pacing end
-- Keys and sessions differ from one round to the next: a later round queues new items, not duplicates.
local round = os.getenv("ROUND") or "1"
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local counter = 0
function request()
  counter = counter + 1
  local session = "bench-" .. round .. "-" .. tid .. "-" .. (counter % 5000)
  -- An alert with parameters and no pacing of its own (newMessages is paced): the pacing compared is PACING's.
  local body = '{"alert":"app/inviteCode","params":{"code":"c' .. counter .. '","inviter":"s"},"dedupeKey":"k' .. round .. '-' .. counter .. '"' .. pacing .. '}'
  return wrk.format("POST", "/v1/sessions/" .. session .. "/queue",
    {["Authorization"] = "Bearer " .. admin, ["Content-Type"] = "application/json"}, body)
end
