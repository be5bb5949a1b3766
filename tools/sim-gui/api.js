// SPDX-License-Identifier: MIT
// The server's API: each runner command is POST api/VERB with its
// arguments as the body (tools/sim_gui.c); the page's own URL carries
// the token, and these relative URLs keep it.

export async function command(verb, args = '') {
  let response;
  try {
    response = await fetch(`api/${verb}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: args,
    });
  } catch (err) {
    return { ok: false, error: `the server does not answer (${err.message})` };
  }
  try {
    return await response.json();
  } catch {
    return { ok: false, error: `HTTP ${response.status}` };
  }
}
