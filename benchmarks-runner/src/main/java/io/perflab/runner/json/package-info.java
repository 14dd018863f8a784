/** The runner's JSON: one strict Jackson mapper for the trial protocol, trial specs and experiment files. */
package io.perflab.runner.json;
