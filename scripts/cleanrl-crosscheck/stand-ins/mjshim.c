/* The few MuJoCo calls Gymnasium's v4 locomotion envs make, over the native C library. */
#include <mujoco/mujoco.h>
#include <math.h>
#include <stdio.h>

mjModel* shim_load(const char* path) {
  char error[1000];
  mjModel* model = mj_loadXML(path, 0, error, sizeof error);
  if (!model) fprintf(stderr, "%s: %s\n", path, error);
  return model;
}
mjData* shim_data(mjModel* m) { return mj_makeData(m); }
int shim_size(mjModel* m, int which) {
  switch (which) { case 0: return m->nq; case 1: return m->nv; case 2: return m->nu; case 3: return m->na; case 4: return m->nbody; }
  return -1;
}
double shim_timestep(mjModel* m) { return m->opt.timestep; }
double* shim_ctrlrange(mjModel* m) { return m->actuator_ctrlrange; }
double* shim_array(mjData* d, int which) {
  switch (which) { case 0: return d->qpos; case 1: return d->qvel; case 2: return d->ctrl; case 3: return d->act; case 4: return d->xpos; case 5: return d->cfrc_ext; }
  return 0;
}
void shim_reset(mjModel* m, mjData* d) { mj_resetData(m, d); }
void shim_forward(mjModel* m, mjData* d) { mj_forward(m, d); }
void shim_step(mjModel* m, mjData* d, int n) { for (int i = 0; i < n; i++) mj_step(m, d); }
void shim_rne_post_constraint(mjModel* m, mjData* d) { mj_rnePostConstraint(m, d); }

/* Prints qpos and qvel after each of `steps` control steps of `skip` physics steps under a fixed
   action sequence, for comparing this library's trajectory with another build's. */
int shim_roll(const char* path, int steps, int skip) {
  mjModel* m = shim_load(path);
  if (!m) return 1;
  mjData* d = mj_makeData(m);
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < m->nu; i++) d->ctrl[i] = 0.9 * sin(0.37 * t + 1.3 * i);
    shim_step(m, d, skip);
    for (int i = 0; i < m->nq; i++) printf("%.17g ", d->qpos[i]);
    for (int i = 0; i < m->nv; i++) printf("%.17g ", d->qvel[i]);
    printf("\n");
  }
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
