#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
static long ns(clockid_t c){struct timespec t;clock_gettime(c,&t);return t.tv_sec*1000000000L+t.tv_nsec;}
static volatile uint64_t sink;
static uint32_t arr[2][1<<16];
static int period_us=10000, units=5000, calls=50; static double secs=60;
static void* run(void* a){ long cpu=(long)a; cpu_set_t s;CPU_ZERO(&s);CPU_SET(cpu,&s);sched_setaffinity(0,sizeof s,&s);
 long end=ns(CLOCK_MONOTONIC)+(long)(secs*1e9); uint64_t x=88172645463325252ULL+cpu; uint32_t*ar=arr[cpu];
 while(ns(CLOCK_MONOTONIC)<end){ long w0=ns(CLOCK_MONOTONIC), c0=ns(CLOCK_THREAD_CPUTIME_ID);
  for(int i=0;i<units;i++){ x^=x<<13;x^=x>>7;x^=x<<17; uint32_t j=x&((1<<16)-1); ar[j]+= (uint32_t)x; sink+=ar[(j*7)&((1<<16)-1)]; }
  long c1=ns(CLOCK_THREAD_CPUTIME_ID);
  for(int i=0;i<calls;i++) sink+=syscall(SYS_getppid);
  long c2=ns(CLOCK_THREAD_CPUTIME_ID);
  printf("%ld %ld %ld %ld\n", cpu, w0, c1-c0, c2-c1);
  struct timespec sl={0,period_us*1000L}; nanosleep(&sl,0);} return 0;}
int main(int c,char**v){ if(c>1)secs=atof(v[1]); if(c>2)units=atoi(v[2]); if(c>3)calls=atoi(v[3]); if(c>4)period_us=atoi(v[4]);
 setvbuf(stdout,0,_IOFBF,1<<20);
 pthread_t t[2]; for(long i=0;i<2;i++)pthread_create(&t[i],0,run,(void*)i); for(int i=0;i<2;i++)pthread_join(t[i],0);}
