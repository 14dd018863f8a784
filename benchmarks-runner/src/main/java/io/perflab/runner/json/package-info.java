/** A small JSON writer and reader for the runner's flat documents (no Jackson in the runner module). */
package io.perflab.runner.json;
