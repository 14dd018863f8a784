# Correlates the windows of one perflab bench JVM (its table on stdout, its stderr with a wall-clock time per
# line) with probe samples (lines "cpu monotonic-ns compute-ns syscall-ns" from host-probe.c or HostProbeLseek.java):
# per window the median and mean of each probe column, r in logs, the residual SD after regressing on both, and
# the SD of each metric divided by one probe column.
# usage: host-probe-correlation.py PROBE.txt BENCH.err BENCH.txt
import sys,re,time,statistics as st, math
import numpy as np
off=time.time()-time.monotonic()
probe=np.array([[int(x) for x in l.split()] for l in open(sys.argv[1]) if len(l.split())==4],dtype=float)
probe[:,1]=probe[:,1]/1e9+off
starts={}
for l in open(sys.argv[2]):
    m=re.match(r'(\S+) perflab bench: measuring for (\S+) s \(window (\d+) of',l)
    if m: starts[int(m.group(3))]=float(m.group(1)); dur=float(m.group(2))
rows=[]
for l in open(sys.argv[3]):
    m=re.match(r'window\s+(\d+)/\d+\s+reqs/s (\d+)\s+user (\S+)us\s+sys (\S+)us\s+cpu (\S+)us\s+ctxsw (\S+)',l)
    if m:
        i=int(m.group(1)); s=starts[i]+0.05; e=s+dur
        ps=probe[(probe[:,1]>=s)&(probe[:,1]<e)]
        if len(ps)<5: continue
        rows.append([float(m.group(5)),float(m.group(3)),float(m.group(4)),float(m.group(2)),np.median(ps[:,2]),np.median(ps[:,3]),np.mean(ps[:,2]),np.mean(ps[:,3]),len(ps)])
A=np.array(rows)[:,:8]; A[:,4]=np.where(A[:,4]<=0,1,A[:,4]); A[:,6]=np.where(A[:,6]<=0,1,A[:,6]); R=np.log(A)
print("n",len(R))
names=['cpu','user','sys','rps']
for j,cn in [(4,'compute med'),(5,'syscall med'),(6,'compute mean'),(7,'syscall mean')]:
    print('%-13s'%cn,' '.join('r(%s)=%.2f'%(names[k],np.corrcoef(R[:,k],R[:,j])[0,1]) for k in range(4)))
for k in range(4):
    X=np.column_stack([np.ones(len(R)),R[:,4],R[:,5]]); b,res,_,_=np.linalg.lstsq(X,R[:,k],rcond=None)
    resid=R[:,k]-X@b
    print(names[k],'SD %.2f%% -> %.2f%% with both (b=%.2f,%.2f)'%(100*R[:,k].std(),100*resid.std(),b[1],b[2]))
print('ratio normalization (beta=1):')
for j,cn in [(4,'compute med'),(5,'syscall med'),(6,'compute mean'),(7,'syscall mean')]:
    print('%-13s'%cn,' '.join('%s %.2f%%'%(names[k],100*(R[:,k]-(R[:,j] if k<3 else -R[:,j])).std()) for k in range(4)))
tot=np.log(np.exp(R[:,6])+np.exp(R[:,7]))
print('sum means   ',' '.join('%s %.2f%%'%(names[k],100*(R[:,k]-(tot if k<3 else -tot)).std()) for k in range(4)))
