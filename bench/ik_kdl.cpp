// Orocos KDL comparison for the IK benchmark (built only when liborocos-kdl-dev is present).
// Same 7-bone chain, start pose and 1,000 targets as bench/ik_bench.c (ik_bench_common.h):
// each ball joint is three revolute joints RotZ, RotY, RotX followed by the unit bone, so the
// chains are identical. Position only. Prints one line per solver:
//   name bones success mean_iterations p95_iterations median_us
// which bench_ik folds into its markdown table.
#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>
#include <kdl/chainjnttojacsolver.hpp>

#include <Eigen/SVD>

#include <cmath>
#include <cstdio>
#include <vector>

extern "C" {
#include "harness.h"
}
#include "ik_bench_common.h"

namespace {

KDL::Chain make_chain(int bones)
{
    KDL::Chain chain;
    for (int i = 0; i < bones; ++i) {
        chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotZ)));
        chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotY)));
        chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotX), KDL::Frame(KDL::Vector(0.0, 1.0, 0.0))));
    }
    return chain;
}

struct Stats {
    double success = 0, mean_it = 0, p95_it = 0, median_us = 0;
};

// Newton-Raphson on position, as KDL's ChainIkSolverPos_NR iterates for full frames: KDL's
// FK and Jacobian solvers, the position rows of the Jacobian, their SVD pseudo-inverse
// (KDL's pinv velocity solvers are 6-D; position only needs the 3 x n block). Returns
// iterations used.
int nr_solve(KDL::ChainFkSolverPos_recursive &fk, KDL::ChainJntToJacSolver &jac_solver,
             const KDL::JntArray &q_init, const KDL::Vector &target, double tol, int max_it,
             KDL::JntArray &q)
{
    q = q_init;
    KDL::Frame f;
    KDL::Jacobian jac(q.rows());
    int it = 0;
    for (; it < max_it; ++it) {
        fk.JntToCart(q, f);
        const KDL::Vector e = target - f.p;
        if (e.Norm() <= tol) break;
        jac_solver.JntToJac(q, jac);
        const Eigen::MatrixXd jp = jac.data.topRows(3);
        Eigen::JacobiSVD<Eigen::MatrixXd> svd(jp, Eigen::ComputeThinU | Eigen::ComputeThinV);
        svd.setThreshold(1e-6);
        const Eigen::Vector3d ev(e.x(), e.y(), e.z());
        q.data += svd.solve(ev);
    }
    return it;
}

}  // namespace

int main()
{
    const int bones = 7;
    ak_skeleton *s = akb_ik_chain_skeleton(bones);
    if (!s) return 1;
    std::vector<ak_vec3> targets(AKB_IK_TARGETS);
    akb_ik_targets(s, bones, targets.data());
    ak_skeleton_destroy(s);

    KDL::Chain chain = make_chain(bones);
    const unsigned dof = chain.getNrOfJoints();
    KDL::JntArray q_init(dof), q(dof);
    for (int j = 0; j < bones; ++j) {
        q_init(3 * j) = AKB_IK_START_Z;
        q_init(3 * j + 1) = AKB_IK_START_Y;
        q_init(3 * j + 2) = AKB_IK_START_X;
    }
    const double tol = AKB_IK_TOLERANCE * bones;
    KDL::ChainFkSolverPos_recursive fk(chain);

    Eigen::Matrix<double, 6, 1> weights;
    weights << 1.0, 1.0, 1.0, 0.0, 0.0, 0.0;
    KDL::ChainIkSolverPos_LMA lma(chain, weights, tol, AKB_IK_MAX_ITERATIONS, 1e-15);
    KDL::ChainJntToJacSolver jac_solver(chain);

    for (int solver = 0; solver < 2; ++solver) {
        std::vector<double> times(AKB_IK_TARGETS), iters(AKB_IK_TARGETS);
        int reached = 0;
        double it_sum = 0;
        for (int t = 0; t < AKB_IK_TARGETS; ++t) {
            const KDL::Vector goal(targets[t].x, targets[t].y, targets[t].z);
            const KDL::Frame goal_frame(goal);
            int it = 0;
            const int reps = 3;
            double t0 = akb_now();
            for (int r = 0; r < reps; ++r) {
                if (solver == 0) {
                    lma.CartToJnt(q_init, goal_frame, q);
                    it = lma.lastNrOfIter;
                } else {
                    it = nr_solve(fk, jac_solver, q_init, goal, tol, AKB_IK_MAX_ITERATIONS, q);
                }
            }
            times[t] = (akb_now() - t0) / reps;
            KDL::Frame f;
            fk.JntToCart(q, f);
            if ((f.p - goal).Norm() <= tol) ++reached;
            iters[t] = it;
            it_sum += it;
        }
        Stats st;
        st.success = double(reached) / AKB_IK_TARGETS;
        st.mean_it = it_sum / AKB_IK_TARGETS;
        st.p95_it = akb_percentile(iters.data(), AKB_IK_TARGETS, 0.95);
        st.median_us = akb_median(times.data(), AKB_IK_TARGETS) * 1e6;
        std::printf("%s %d %.4f %.2f %.0f %.3f\n", solver == 0 ? "KDL_LMA_(position)" : "KDL_NR_pinv_(position)",
                    bones, st.success, st.mean_it, st.p95_it, st.median_us);
    }
    return 0;
}
