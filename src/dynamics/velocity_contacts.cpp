// The velocity level's contacts at a substep: found (the sleepers a moving body touches woken
// first), prepared and warm-started, or carried on from an earlier substep or step
// (docs/theory.md, "Solving contacts").
#include <algorithm>

#include "dynamics/velocity_formulation.hpp"

namespace tinkertoy {

void VelocityFormulation::softContacts(double time, const Eigen::VectorXd& q, Eigen::VectorXd& v, double h,
                                       double step) {
  // A step whose bodies have all stayed within their leeway of where they were at its points'
  // search, counting what they can move within it at their velocities now, carries them on
  // without a search (a pile at rest): a pair the search did not find was more than the two
  // bodies' margins apart (each twice the slop and what the body could move in that step, m₀),
  // and a body's leeway, min(2 slop, slop + m₀), keeps at least the slop of its margin for what
  // it gains in speed within this step (ContactFinder::withinLeeway). Else the
  // points are found at the step's first substep, within what the bodies can close in the whole
  // step, and carried through its other substeps while no body moves by more than twice the
  // slop in the step (whose contacts then keep their features), else found again at each.
  const double slop = contacts_.material().slop;
  if (step > 0.0) {
    carryContacts_ = contacts_.carriable() && contactFinder_.withinLeeway({time, q, v}, step, slop);
    if (!carryContacts_) {
      prepareContacts(time, q, v, h, step);
      carryContacts_ = contactFinder_.farthestMove() <= 2.0 * slop;
      return;
    }
  }
  if (!carryContacts_) {
    prepareContacts(time, q, v, h, h);
    return;
  }
  contacts_.carry(v, h);
  contactTally_.points = std::max(contactTally_.points, static_cast<int>(contacts_.pointCount()));
  contactTally_.penetration = std::max(contactTally_.penetration, contacts_.deepestPenetration());
}

void VelocityFormulation::prepareContacts(double time, const Eigen::VectorXd& q, Eigen::VectorXd& v, double h,
                                          double reach) {
  contacts_.prepare(findContacts(time, q, v, h, reach), {time, q, v}, v, h);
  contactTally_.points = std::max(contactTally_.points, static_cast<int>(contacts_.pointCount()));
  contactTally_.penetration = std::max(contactTally_.penetration, contacts_.deepestPenetration());
}

std::span<const BodyContact> VelocityFormulation::findContacts(double time, const Eigen::VectorXd& q,
                                                              Eigen::VectorXd& v, double h, double reach) {
  const double slop = contacts_.material().slop;
  std::span<const BodyContact> found = contactFinder_.find({time, q, v}, reach, slop, islands_.asleep());
  if (!islands_.anyAsleep()) return found;
  islands_.forgetWoken();
  // Each round wakes at least one island, so this ends.
  bool woke = false;
  while (islands_.wakeTouched(found, contacts_)) {
    woke = true;
    found = contactFinder_.find({time, q, v}, reach, slop, islands_.asleep());
  }
  if (woke) islands_.kickWoken(v, WQ_, h);  // the substep's forces (W Q in WQ_), which hold() kept from them
  return found;
}

}  // namespace tinkertoy
